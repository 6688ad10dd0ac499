// tapseek report: the map, the table and the profile of one field log, from the JSON block
// "report-data" (rows as arrays; see ReportRows.swift for their layout). No library, no fetch.
(function () {
  'use strict';

  var problems = [];
  window.addEventListener('error', function (e) { problems.push(String(e.message || e)); });
  var consoleError = console.error;
  console.error = function () { problems.push(Array.prototype.join.call(arguments, ' ')); consoleError.apply(console, arguments); };

  var LINE = 0, TIME = 1, STATUS = 2, OLAT = 3, OLON = 4, TLAT = 5, TLON = 6, ELEV = 7, DIST = 8, PLACE = 9, WARN = 10, ERR = 11, PROF = 12, REGION = 13;
  // Beyond this many rows in view the table draws only the rows scrolled to (interface.md).
  var FULL_TABLE = 10000;
  // A full table is written in slices after its first screenful: 10 000 rows at once kept the
  // first paint waiting over 3 s on this project's machines (scripts/bench-report.sh).
  var FIRST_SLICE = 200, SLICE = 2000;
  // Above this many sightlines the map keeps one per few pixels of the screen.
  var THIN_ABOVE = 3000, THIN_CELL = 4;
  var COLOURS = { hit: '#c0261a', horizon: '#7b3294', location: '#1f5fa8', error: '#a1261b' };
  // A track breaks where the observer moved farther than this in one step without times
  // (metres); with times, farther than a train could (90 m/s) plus a GPS fix's error (50 m),
  // or after a pause this long (seconds).
  var TRACK_JUMP = 5000, TRACK_SPEED = 90, TRACK_SLACK = 50, TRACK_PAUSE = 1800;
  // The profile's colours, those of `locate --plot` (ProfilePlot.swift).
  var PROFILE = { terrain: '#6b8e3a', target: '#ff8c00', voidFill: '#ececec' };
  var METRES_PER_DEGREE = 6371008.8 * Math.PI / 180;

  var data = JSON.parse(document.getElementById('report-data').textContent);
  var rows = data.rows;
  var view = rows.map(function (_, i) { return i; });
  var selected = -1;
  var sort = { column: -1, descending: false };

  // ---- Map ----------------------------------------------------------------------------------
  // The views: views[0] covers the whole log; when its readings gather in places far apart,
  // views[1…] are those places (clusters), most readings first, and the page opens on views[1].
  var views = data.views || [];
  // #view=N opens view N instead (0: all places).
  var linkedView = /^#view=(\d+)$/.exec(location.hash);
  var current = Math.min(linkedView ? Number(linkedView[1]) : data.open || 0, Math.max(views.length - 1, 0));
  var extent = views.length ? views[0] : null;
  var canvas = document.getElementById('map-canvas');
  var ctx = canvas.getContext('2d');
  // World units: degrees of latitude; x is longitude times the cosine of the current view's
  // middle latitude, so that the view keeps the ground's aspect as its relief image does.
  var cosLat = 1;
  var camera = { scale: 1, x: 0, y: 0 };
  var drawn = [];
  var drag = null;
  var track = [];
  var SEA = [207, 224, 234], LAND = [[243, 240, 232], [238, 240, 226], [244, 236, 228], [236, 239, 233], [242, 238, 222]];
  var COAST = [104, 140, 168], BORDER = [88, 88, 92], REGION_LINE = [176, 170, 160];

  function worldX(lon) { return (lon - extent.west) * cosLat; }
  function worldY(lat) { return extent.north - lat; }
  function screenX(lon) { return worldX(lon) * camera.scale + camera.x; }
  function screenY(lat) { return worldY(lat) * camera.scale + camera.y; }
  function lonAt(px) { return (px - camera.x) / camera.scale / cosLat + extent.west; }
  function latAt(py) { return extent.north - (py - camera.y) / camera.scale; }

  function resize() {
    var ratio = window.devicePixelRatio || 1;
    canvas.width = Math.max(1, Math.round(canvas.clientWidth * ratio));
    canvas.height = Math.max(1, Math.round(canvas.clientHeight * ratio));
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  }

  /** Shows the current view whole. */
  function fit() {
    if (!extent) return;
    var v = views[current];
    var w = (v.east - v.west) * cosLat, h = v.north - v.south;
    var cw = canvas.clientWidth, ch = canvas.clientHeight;
    camera.scale = Math.min(cw / w, ch / h);
    camera.x = (cw - w * camera.scale) / 2 - worldX(v.west) * camera.scale;
    camera.y = (ch - h * camera.scale) / 2 - worldY(v.north) * camera.scale;
  }

  function setView(i) {
    current = i;
    var v = views[i];
    cosLat = Math.cos((v.south + v.north) / 2 * Math.PI / 180);
    fit();
    draw();
    viewButtons();
    notice();
    legend();
  }

  // The views' pictures: relief images, and coasts and borders rebuilt from their runs into a
  // fill (sea, land) and a layer of lines drawn over the relief.
  var pictures = views.map(function (v) {
    var p = { relief: null, fill: null, lines: null, labels: [] };
    if (v.relief) {
      p.relief = new Image();
      p.relief.onload = function () { p.uncovered = uncoveredHatch(p.relief); p.reliefReady = true; draw(); imageLoaded(); };
      p.relief.src = v.relief.src;
    }
    if (v.basemap) buildBasemap(v.basemap, p);
    return p;
  });
  var imagesPending = pictures.filter(function (p) { return p.relief; }).length;

  function buildBasemap(map, p) {
    var w = map.width, h = map.height, cells = new Uint16Array(w * h);
    map.runs.forEach(function (row, y) {
      for (var k = 0, x = y * w; k < row.length; k += 2) { cells.fill(row[k], x, x + row[k + 1]); x += row[k + 1]; }
    });
    var countryOf = map.areas.map(function (a) { return a[0]; });
    var tints = {};
    function tint(code) {
      if (!(code in tints)) {
        var hash = 0;
        for (var c = 0; c < code.length; c++) hash = (hash * 31 + code.charCodeAt(c)) % 997;
        tints[code] = LAND[hash % LAND.length];
      }
      return tints[code];
    }
    var fill = document.createElement('canvas'), lines = document.createElement('canvas');
    fill.width = lines.width = w;
    fill.height = lines.height = h;
    var f = fill.getContext('2d').createImageData(w, h), l = lines.getContext('2d').createImageData(w, h);
    // Whole pixels at once (RGBA bytes in memory order as one little- or big-endian word).
    var little = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
    function word(c) { return little ? (255 << 24 | c[2] << 16 | c[1] << 8 | c[0]) >>> 0 : (c[0] << 24 | c[1] << 16 | c[2] << 8 | 255) >>> 0; }
    var fillWords = new Uint32Array(f.data.buffer), lineWords = new Uint32Array(l.data.buffer);
    var colours = Uint32Array.from([SEA].concat(countryOf.map(tint)).map(word));
    var lineColours = Uint32Array.from([[0, 0, 0], REGION_LINE, BORDER, COAST].map(word));
    lineColours[0] = 0;
    // Each area's country as a number, which neighbouring pixels compare.
    var countryNumber = new Int32Array(countryOf.length + 1), numbers = {};
    countryOf.forEach(function (code, k) { countryNumber[k + 1] = code in numbers ? numbers[code] : (numbers[code] = k + 1); });
    // A line pixel where a neighbour differs: coast (land against water), country border,
    // region border; the stronger line wins.
    var rank = new Uint8Array(w * h);
    var count = new Float64Array(countryOf.length + 1), sumX = new Float64Array(countryOf.length + 1), sumY = new Float64Array(countryOf.length + 1);
    for (var y = 0, i = 0; y < h; y++) {
      var rowCount = 0, rowArea = -1, rowStart = 0;
      for (var x = 0; x < w; x++, i++) {
        var a = cells[i];
        fillWords[i] = colours[a];
        if (a !== rowArea) {
          if (rowArea >= 0) { count[rowArea] += rowCount; sumX[rowArea] += rowCount * (rowStart + x - 1) / 2; sumY[rowArea] += rowCount * y; }
          rowArea = a; rowCount = 0; rowStart = x;
        }
        rowCount++;
        if (x + 1 < w && cells[i + 1] !== a) edge(i, i + 1);
        if (y + 1 < h && cells[i + w] !== a) edge(i, i + w);
      }
      count[rowArea] += rowCount; sumX[rowArea] += rowCount * (rowStart + w - 1) / 2; sumY[rowArea] += rowCount * y;
    }
    function edge(i, j) {
      var a = cells[i], b = cells[j], kind = a === 0 || b === 0 ? 3 : countryNumber[a] !== countryNumber[b] ? 2 : 1;
      var at = kind === 3 && a === 0 ? j : i;
      if (kind > rank[at]) rank[at] = kind;
    }
    for (var j = 0; j < rank.length; j++) if (rank[j]) lineWords[j] = lineColours[rank[j]];
    fill.getContext('2d').putImageData(f, 0, 0);
    lines.getContext('2d').putImageData(l, 0, 0);
    p.fill = fill;
    p.lines = lines;
    // Country names at the middle of their pixels.
    var sums = {};
    countryOf.forEach(function (code, k) {
      var s = sums[code] || (sums[code] = { n: 0, x: 0, y: 0, name: map.areas[k][1] || code });
      s.n += count[k + 1]; s.x += sumX[k + 1]; s.y += sumY[k + 1];
    });
    Object.keys(sums).forEach(function (code) {
      var s = sums[code];
      if (!s.n || !s.name) return;
      p.labels.push({ name: s.name, pixels: s.n, lon: map.west + (s.x / s.n + 0.5) * (map.east - map.west) / w,
        lat: map.north - (s.y / s.n + 0.5) * (map.north - map.south) / h });
    });
    p.labels.sort(function (a, b) { return b.pixels - a.pixels; });
  }

  /** Diagonal hatching over the pixels of a relief no DEM tile covers (transparent in the
   *  relief): there the map is not flat land, it has no terrain data. */
  function uncoveredHatch(image) {
    var w = image.naturalWidth, h = image.naturalHeight;
    var c = document.createElement('canvas');
    c.width = w; c.height = h;
    var g = c.getContext('2d');
    g.drawImage(image, 0, 0);
    var pixels = g.getImageData(0, 0, w, h), d = pixels.data, period = Math.max(6, Math.round(Math.max(w, h) / 90)), any = false;
    for (var y = 0; y < h; y++) {
      for (var x = 0; x < w; x++) {
        var o = 4 * (y * w + x);
        var line = d[o + 3] === 0 && (x + y) % period < Math.max(1, period / 6);
        d[o] = 120; d[o + 1] = 120; d[o + 2] = 130; d[o + 3] = line ? 150 : 0;
        any = any || line;
      }
    }
    g.putImageData(pixels, 0, 0);
    return any ? c : null;
  }

  function drawBox(image, box, smooth) {
    var x0 = screenX(box.west), y0 = screenY(box.north), x1 = screenX(box.east), y1 = screenY(box.south);
    if (x1 < 0 || y1 < 0 || x0 > canvas.clientWidth || y0 > canvas.clientHeight) return;
    ctx.imageSmoothingEnabled = smooth;
    ctx.drawImage(image, x0, y0, x1 - x0, y1 - y0);
  }

  /** Clips to the screen less the boxes of finer basemaps than view `i`'s, so that a coarse
   *  coast is not drawn beside the finer one of a cluster. */
  function clipFiner(i) {
    ctx.beginPath();
    ctx.rect(-10, -10, canvas.clientWidth + 20, canvas.clientHeight + 20);
    for (var k = i + 1; k < views.length; k++) {
      var b = views[k].basemap;
      if (!b) continue;
      ctx.rect(screenX(b.west), screenY(b.north), screenX(b.east) - screenX(b.west), screenY(b.south) - screenY(b.north));
    }
    ctx.clip('evenodd');
  }

  function drawBackground() {
    // Beyond the maps the background stays neutral: not sea, not land, unknown.
    ctx.fillStyle = '#e3e5e8';
    ctx.fillRect(0, 0, canvas.clientWidth, canvas.clientHeight);
    var pixelSmooth = function (box, width) { return camera.scale * (box.north - box.south) / width < 2; };
    pictures.forEach(function (p, i) {
      if (!p.fill) return;
      ctx.save(); clipFiner(i);
      drawBox(p.fill, views[i].basemap, pixelSmooth(views[i].basemap, views[i].basemap.height));
      ctx.restore();
    });
    pictures.forEach(function (p, i) {
      if (p.reliefReady) drawBox(p.relief, views[i].relief, pixelSmooth(views[i].relief, views[i].relief.height));
      // A view no tile covers at all says so in its notice; hatching would only fill it.
      if (p.uncovered && views[i].relief.covered > 0) drawBox(p.uncovered, views[i].relief, true);
    });
    pictures.forEach(function (p, i) {
      if (!p.lines) return;
      ctx.save(); clipFiner(i);
      // Generalised lines: over a relief they yield to it.
      ctx.globalAlpha = views[i].relief || i > 0 ? 0.6 : 0.9;
      drawBox(p.lines, views[i].basemap, camera.scale * (views[i].basemap.north - views[i].basemap.south) / views[i].basemap.height < 1);
      ctx.restore();
    });
  }

  /** Country names at the middle of their land in the view's basemap, where there is room. */
  var labelsShown = true;

  function drawLabels() {
    var p = pictures[current];
    if (!p || !p.labels.length || !labelsShown) return;
    var placed = [];
    ctx.font = '600 12px system-ui, sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    var map = views[current].basemap;
    var pixelArea = Math.pow(camera.scale * (map.north - map.south) / map.height, 2);
    p.labels.forEach(function (label) {
      if (label.pixels * pixelArea < 4000) return;
      var x = screenX(label.lon), y = screenY(label.lat), w = ctx.measureText(label.name).width + 8;
      if (x < w / 2 || y < 10 || x > canvas.clientWidth - w / 2 || y > canvas.clientHeight - 10) return;
      if (placed.some(function (b) { return Math.abs(b.x - x) < (b.w + w) / 2 && Math.abs(b.y - y) < 16; })) return;
      placed.push({ x: x, y: y, w: w });
      ctx.lineWidth = 3;
      ctx.strokeStyle = 'rgba(255,255,255,0.8)';
      ctx.strokeText(label.name, x, y);
      ctx.fillStyle = 'rgba(60,60,70,0.85)';
      ctx.fillText(label.name, x, y);
    });
    ctx.textAlign = 'start';
    ctx.textBaseline = 'alphabetic';
  }

  /** In the overview: each cluster's box, named; a click inside opens it. */
  function drawClusterBoxes() {
    if (current !== 0 || views.length < 2) return;
    ctx.setLineDash([5, 4]);
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = '#23303a';
    ctx.font = '12px system-ui, sans-serif';
    for (var k = 1; k < views.length; k++) {
      var v = views[k], x0 = screenX(v.west), y0 = screenY(v.north), x1 = screenX(v.east), y1 = screenY(v.south);
      var pad = Math.max(0, 8 - Math.min(x1 - x0, y1 - y0) / 2);
      ctx.strokeRect(x0 - pad, y0 - pad, x1 - x0 + 2 * pad, y1 - y0 + 2 * pad);
      var text = v.name + ' · ' + v.count, tw = ctx.measureText(text).width + 6;
      var lx = x1 + pad + 3 + tw > canvas.clientWidth ? x0 - pad - 3 - tw : x1 + pad + 3;
      ctx.fillStyle = 'rgba(255,255,255,0.85)';
      ctx.fillRect(lx, y0 - pad - 2, tw, 16);
      ctx.fillStyle = '#23303a';
      ctx.fillText(text, lx + 3, y0 - pad + 10);
    }
    ctx.setLineDash([]);
  }

  /** The cluster whose box (grown to a finger's width) holds the screen point, in the overview. */
  function clusterAt(px, py) {
    if (current !== 0) return -1;
    for (var k = 1; k < views.length; k++) {
      var v = views[k], x0 = screenX(v.west), y0 = screenY(v.north), x1 = screenX(v.east), y1 = screenY(v.south);
      var pad = Math.max(0, 8 - Math.min(x1 - x0, y1 - y0) / 2);
      if (px >= x0 - pad && px <= x1 + pad && py >= y0 - pad && py <= y1 + pad) return k;
    }
    return -1;
  }

  /** The observers' track in input order, as polylines: broken where the observer jumps
   *  farther than a walker, a car or a train could have moved (or 5 km when times are unknown),
   *  so that readings taken here and there are dots, not a scribble between them. */
  function buildTrack() {
    track = [];
    var line = null, last = null;
    var inView = new Uint8Array(rows.length);
    view.forEach(function (i) { inView[i] = 1; });
    for (var i = 0; i < rows.length; i++) {
      var r = rows[i];
      if (!inView[i] || r[OLAT] === null) continue;
      if (last) {
        var d = metres(last[OLAT], last[OLON], r[OLAT], r[OLON]);
        var seconds = last[TIME] && r[TIME] ? (Date.parse(r[TIME]) - Date.parse(last[TIME])) / 1000 : NaN;
        var jump = isFinite(seconds) && seconds >= 0 ? d > TRACK_SLACK + TRACK_SPEED * seconds : d > TRACK_JUMP;
        if (jump || (isFinite(seconds) && seconds > TRACK_PAUSE)) line = null;
      }
      if (!line) { line = []; track.push(line); }
      if (!last || line.length === 0 || last[OLAT] !== r[OLAT] || last[OLON] !== r[OLON]) line.push([r[OLON], r[OLAT]]);
      last = r;
    }
    track = track.filter(function (l) { return l.length > 1; });
  }

  function metres(lat1, lon1, lat2, lon2) {
    var r = Math.PI / 180, a = Math.pow(Math.sin((lat2 - lat1) * r / 2), 2) + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.pow(Math.sin((lon2 - lon1) * r / 2), 2);
    return 2 * METRES_PER_DEGREE * 180 / Math.PI * Math.asin(Math.min(1, Math.sqrt(a)));
  }

  function drawTrack() {
    if (!track.length) return;
    ctx.lineJoin = 'round';
    ctx.lineCap = 'round';
    ctx.strokeStyle = 'rgba(255,255,255,0.85)';
    ctx.lineWidth = 4.5;
    tracePath();
    ctx.stroke();
    ctx.strokeStyle = COLOURS.location;
    ctx.lineWidth = 2.2;
    tracePath();
    ctx.stroke();
    function tracePath() {
      ctx.beginPath();
      track.forEach(function (l) {
        l.forEach(function (p, n) { if (n === 0) ctx.moveTo(screenX(p[0]), screenY(p[1])); else ctx.lineTo(screenX(p[0]), screenY(p[1])); });
      });
    }
    // Where each stretch starts: a ring.
    ctx.fillStyle = '#fff';
    ctx.strokeStyle = COLOURS.location;
    ctx.lineWidth = 2;
    track.forEach(function (l) {
      ctx.beginPath(); ctx.arc(screenX(l[0][0]), screenY(l[0][1]), 5, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
    });
  }

  function draw() {
    var cw = canvas.clientWidth, ch = canvas.clientHeight;
    ctx.clearRect(0, 0, cw, ch);
    drawn = [];
    if (!extent) {
      ctx.fillStyle = '#556';
      ctx.font = '14px system-ui, sans-serif';
      ctx.fillText('No reading was located: nothing to map.', 16, 60);
      return;
    }
    drawBackground();
    drawLabels();
    drawClusterBoxes();
    drawTrack();
    var located = 0;
    for (var k = 0; k < view.length; k++) if (rows[view[k]][OLAT] !== null) located++;
    var thin = located > THIN_ABOVE;
    var taken = thin ? new Set() : null;
    if (data.uncertainty) {
      ctx.fillStyle = 'rgba(230, 120, 20, 0.18)';
      ctx.strokeStyle = 'rgba(200, 90, 10, 0.7)';
      ctx.lineWidth = 1;
    }
    var observers = [], targets = [];
    for (var j = 0; j < view.length; j++) {
      var i = view[j], r = rows[i];
      if (r[OLAT] === null) continue;
      var ox = screenX(r[OLON]), oy = screenY(r[OLAT]);
      var hasTarget = r[TLAT] !== null;
      var tx = hasTarget ? screenX(r[TLON]) : ox, ty = hasTarget ? screenY(r[TLAT]) : oy;
      if (Math.max(ox, tx) < -20 || Math.min(ox, tx) > cw + 20 || Math.max(oy, ty) < -20 || Math.min(oy, ty) > ch + 20) continue;
      if (thin && i !== selected) {
        var cell = Math.floor(tx / THIN_CELL) + ',' + Math.floor(ty / THIN_CELL) + ',' + Math.floor(ox / (THIN_CELL * 4)) + ',' + Math.floor(oy / (THIN_CELL * 4));
        if (taken.has(cell)) continue;
        taken.add(cell);
      }
      if (data.uncertainty && r[REGION]) drawRegion(r[REGION]);
      drawn.push(i);
      observers.push(ox, oy);
      if (hasTarget) targets.push(tx, ty, r[STATUS]);
    }
    ctx.lineWidth = 1.2;
    ['hit', 'horizon'].forEach(function (status) {
      ctx.strokeStyle = COLOURS[status];
      ctx.globalAlpha = 0.75;
      ctx.beginPath();
      for (var n = 0; n < drawn.length; n++) {
        var r = rows[drawn[n]];
        if (r[STATUS] !== status) continue;
        ctx.moveTo(screenX(r[OLON]), screenY(r[OLAT]));
        ctx.lineTo(screenX(r[TLON]), screenY(r[TLAT]));
      }
      ctx.stroke();
    });
    ctx.globalAlpha = 1;
    ctx.fillStyle = COLOURS.location;
    for (var o = 0; o < observers.length; o += 2) ctx.fillRect(observers[o] - 2, observers[o + 1] - 2, 4, 4);
    for (var t = 0; t < targets.length; t += 3) {
      ctx.fillStyle = COLOURS[targets[t + 2]];
      ctx.beginPath();
      ctx.arc(targets[t], targets[t + 1], 2.5, 0, 2 * Math.PI);
      ctx.fill();
    }
    if (selected >= 0 && rows[selected][OLAT] !== null) {
      var s = rows[selected];
      var sx = screenX(s[OLON]), sy = screenY(s[OLAT]);
      var ex = s[TLAT] !== null ? screenX(s[TLON]) : sx, ey = s[TLAT] !== null ? screenY(s[TLAT]) : sy;
      ctx.lineCap = 'round';
      ctx.strokeStyle = '#222';
      ctx.lineWidth = 6;
      ctx.beginPath(); ctx.moveTo(sx, sy); ctx.lineTo(ex, ey); ctx.stroke();
      ctx.strokeStyle = '#ffd23f';
      ctx.lineWidth = 3.5;
      ctx.beginPath(); ctx.moveTo(sx, sy); ctx.lineTo(ex, ey); ctx.stroke();
      ctx.fillStyle = '#222';
      ctx.beginPath(); ctx.arc(sx, sy, 5, 0, 2 * Math.PI); ctx.fill();
      ctx.beginPath(); ctx.arc(ex, ey, 5, 0, 2 * Math.PI); ctx.fill();
    }
    drawScale();
  }

  function drawRegion(polygons) {
    ctx.beginPath();
    polygons.forEach(function (ring) {
      ring.forEach(function (v, n) {
        var x = screenX(v[1]), y = screenY(v[0]);
        if (n === 0) ctx.moveTo(x, y); else ctx.lineTo(x, y);
      });
      ctx.closePath();
    });
    ctx.fill();
    ctx.stroke();
  }

  function drawScale() {
    var metresPerPixel = METRES_PER_DEGREE / camera.scale;
    var target = metresPerPixel * 120, step = Math.pow(10, Math.floor(Math.log10(target)));
    var length = [5, 2, 1].map(function (f) { return f * step; }).find(function (l) { return l <= target; }) || step;
    document.getElementById('scale-bar').style.width = Math.round(length / metresPerPixel) + 'px';
    document.getElementById('scale-label').textContent = length >= 1000 ? (length / 1000) + ' km' : length + ' m';
  }

  function zoomAt(factor, px, py) {
    camera.x = px - (px - camera.x) * factor;
    camera.y = py - (py - camera.y) * factor;
    camera.scale *= factor;
    draw();
  }

  function segmentDistance(px, py, ax, ay, bx, by) {
    var dx = bx - ax, dy = by - ay, len = dx * dx + dy * dy;
    var t = len > 0 ? Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len)) : 0;
    var x = ax + t * dx - px, y = ay + t * dy - py;
    return Math.sqrt(x * x + y * y);
  }

  /** The row whose drawn sightline (or observer) passes nearest the point, within 8 pixels. */
  function rowAt(px, py) {
    var best = -1, bestDistance = 8;
    for (var n = 0; n < drawn.length; n++) {
      var r = rows[drawn[n]];
      var ox = screenX(r[OLON]), oy = screenY(r[OLAT]);
      var d = r[TLAT] !== null ? segmentDistance(px, py, ox, oy, screenX(r[TLON]), screenY(r[TLAT])) : Math.hypot(px - ox, py - oy);
      if (d < bestDistance) { bestDistance = d; best = drawn[n]; }
    }
    return best;
  }

  canvas.addEventListener('pointerdown', function (e) {
    drag = { x: e.clientX, y: e.clientY, cx: camera.x, cy: camera.y, moved: false };
    canvas.setPointerCapture && canvas.setPointerCapture(e.pointerId);
    canvas.classList.add('dragging');
  });
  canvas.addEventListener('pointermove', function (e) {
    if (!drag) return;
    var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
    camera.x = drag.cx + dx;
    camera.y = drag.cy + dy;
    if (drag.moved) draw();
  });
  canvas.addEventListener('pointerup', function () { canvas.classList.remove('dragging'); });
  canvas.addEventListener('click', function (e) {
    var moved = drag && drag.moved;
    drag = null;
    if (moved) return;
    var box = canvas.getBoundingClientRect();
    var px = e.clientX - box.left, py = e.clientY - box.top;
    var i = rowAt(px, py);
    if (i >= 0) return select(i, true);
    var k = clusterAt(px, py);
    if (k > 0) setView(k);
  });
  canvas.addEventListener('wheel', function (e) {
    e.preventDefault();
    var box = canvas.getBoundingClientRect();
    zoomAt(e.deltaY < 0 ? 1.25 : 0.8, e.clientX - box.left, e.clientY - box.top);
  }, { passive: false });
  document.getElementById('zoom-in').addEventListener('click', function () { zoomAt(1.5, canvas.clientWidth / 2, canvas.clientHeight / 2); });
  document.getElementById('zoom-out').addEventListener('click', function () { zoomAt(1 / 1.5, canvas.clientWidth / 2, canvas.clientHeight / 2); });
  document.getElementById('zoom-fit').addEventListener('click', function () { fit(); draw(); });
  window.addEventListener('resize', function () { resize(); draw(); });

  /** One button a view when the log's readings lie in places far apart. */
  function viewButtons() {
    var box = document.getElementById('views');
    if (views.length < 2) { box.hidden = true; return; }
    box.innerHTML = views.map(function (v, i) {
      var noDEM = v.relief && v.relief.covered === 0 ? ' <span class="no-dem">no DEM</span>' : '';
      return '<button data-view="' + i + '"' + (i === current ? ' class="active"' : '') + ' title="' + escapeHTML(v.name) + ': ' + v.count +
        ' located readings">' + escapeHTML(i === 0 ? 'All places' : v.name) + ' · ' + v.count + noDEM + '</button>';
    }).join('');
  }
  document.getElementById('views').addEventListener('click', function (e) {
    var b = e.target.closest('button[data-view]');
    if (b) setView(Number(b.getAttribute('data-view')));
  });

  /** Says when the DEM covers none (or only part) of the view: no relief is not flat land. */
  function notice() {
    var box = document.getElementById('notice');
    var v = views[current];
    var text = '';
    if (v) {
      var reliefs = v.relief ? [v] : views.slice(1).filter(function (w) { return w.relief; });
      var uncovered = reliefs.filter(function (w) { return w.relief.covered === 0; });
      var bbox = [Math.floor(v.south), Math.floor(v.west), Math.ceil(v.north), Math.ceil(v.east)].join(',');
      if (reliefs.length && uncovered.length === reliefs.length) {
        text = 'No DEM covers this area: no relief is drawn, and no reading here has a sightline profile' +
          (v.basemap ? '; the map shows coasts and borders only' : '') + '. To add terrain: tapseek dem fetch --bbox ' + bbox;
      } else if (uncovered.length) {
        text = 'No DEM covers ' + uncovered.map(function (w) { return w.name; }).join(', ') + ': no relief there.';
      }
      if (!v.basemap) text += (text ? ' ' : '') + 'No geocoder index: coasts and borders are not drawn.';
    }
    box.textContent = text;
    box.hidden = !text;
  }

  function legend() {
    var html = '';
    if (rows.some(function (r) { return r[STATUS] === 'hit'; })) html += '<div><i style="background:' + COLOURS.hit + '"></i>sightline to a hit</div>';
    if (rows.some(function (r) { return r[STATUS] === 'horizon'; })) html += '<div><i style="background:' + COLOURS.horizon + '"></i>sightline to the skyline</div>';
    html += '<div><i style="background:' + COLOURS.location + '"></i>observer</div>';
    if (track.length) html += '<div><i class="line" style="border-color:' + COLOURS.location + '"></i>track (input order)</div>';
    if (data.uncertainty) html += '<div><i style="background:rgba(230,120,20,0.35);border:1px solid #c85a0a"></i>95 % region</div>';
    html += '<div><i style="background:#ffd23f;border:1px solid #222"></i>selected</div>';
    var v = views[current], relief = v && v.relief;
    if (relief && relief.low !== undefined) {
      html += '<div>' + Math.round(relief.low) + ' m <i class="ramp" style="background:linear-gradient(to right,' +
        'rgb(56,112,60) 0%,rgb(120,160,90) 30%,rgb(200,184,128) 60%,rgb(226,212,190) 85%,rgb(250,250,250) 100%)"></i> ' +
        Math.round(relief.high) + ' m</div>';
    }
    if (relief && relief.covered > 0 && relief.covered < 0.995) {
      html += '<div><i class="hatch"></i>no DEM (' + Math.round((1 - relief.covered) * 100) + ' % of this view)</div>';
    }
    if (v && v.basemap) {
      html += '<div><i class="line" style="border-color:rgb(' + COAST.join(',') + ')"></i>coast ' +
        '<i class="line" style="border-color:rgb(' + BORDER.join(',') + ')"></i>country ' +
        '<i class="line" style="border-color:rgb(' + REGION_LINE.join(',') + ')"></i>region</div>' +
        '<div class="source">Coasts and borders: Natural Earth 1:10 M' + ((v.north - v.south) * 111 < 60 ? ', a few km off at this scale' : '') + '</div>';
    }
    document.getElementById('legend').innerHTML = html;
  }

  // ---- Table --------------------------------------------------------------------------------
  var COLUMNS = [
    { title: 'Line', key: function (r) { return r[LINE]; }, cell: function (r) { return r[LINE]; }, num: true },
    { title: 'Time', key: function (r) { return r[TIME] || ''; }, cell: function (r) { return r[TIME] ? r[TIME].replace('T', ' ').replace('Z', '') : ''; } },
    { title: 'Status', key: function (r) { return r[STATUS]; }, cell: function (r) { return r[STATUS]; }, cls: 'status' },
    { title: 'Target', key: function (r) { return r[TLAT] === null ? -1e9 : r[ELEV]; },
      cell: function (r) { return r[TLAT] === null ? '' : r[TLAT].toFixed(5) + ', ' + r[TLON].toFixed(5) + (r[ELEV] === null ? '' : ' · ' + r[ELEV] + ' m'); } },
    { title: 'Distance', key: function (r) { return r[DIST] === null ? -1 : r[DIST]; }, cell: function (r) { return r[DIST] === null ? '' : (r[DIST] / 1000).toFixed(2) + ' km'; }, num: true },
    { title: 'Place', key: function (r) { return r[PLACE] || ''; }, cell: function (r) { return r[PLACE] || ''; }, cls: 'place' },
    { title: 'Warnings', key: function (r) { return (r[ERR] || '') + (r[WARN] || ''); }, cell: function (r) { return r[ERR] ? r[ERR] : (r[WARN] || ''); } }
  ];
  var tbody = document.querySelector('#table tbody');
  var scroller = document.getElementById('table-scroll');
  var rowHeight = 23;
  var virtual = false;
  var haystacks = null;

  function escapeHTML(s) {
    return String(s).replace(/[&<>"]/g, function (c) { return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]; });
  }

  function rowHTML(i) {
    var r = rows[i];
    var html = '<tr data-line="' + r[LINE] + '" data-index="' + i + '" class="status-' + r[STATUS] + (i === selected ? ' selected' : '') + '">';
    for (var c = 0; c < COLUMNS.length; c++) {
      var col = COLUMNS[c], text = escapeHTML(col.cell(r));
      html += '<td' + (col.num ? ' class="num"' : col.cls ? ' class="' + col.cls + '"' : '') + ' title="' + text + '">' + text + '</td>';
    }
    return html + '</tr>';
  }

  var generation = 0, tableComplete = false, whenComplete = [];

  function rowsHTML(from, to) {
    var parts = new Array(to - from);
    for (var k = from; k < to; k++) parts[k - from] = rowHTML(view[k]);
    return parts.join('');
  }

  /** Calls `action` once every row of the current view is in the table. */
  function afterTable(action) {
    if (tableComplete) action(); else whenComplete.push(action);
  }

  function completeTable() {
    tableComplete = true;
    var actions = whenComplete;
    whenComplete = [];
    actions.forEach(function (action) { action(); });
  }

  function renderTable() {
    virtual = view.length > FULL_TABLE;
    document.getElementById('shown').textContent = view.length === rows.length ? rows.length + ' lines' : view.length + ' of ' + rows.length + ' lines';
    var mine = ++generation;
    tableComplete = false;
    if (virtual) {
      renderWindow();
      completeTable();
      return;
    }
    var written = Math.min(FIRST_SLICE, view.length);
    tbody.innerHTML = rowsHTML(0, written);
    (function more() {
      if (mine !== generation) return;
      if (written >= view.length) return completeTable();
      setTimeout(function () {
        if (mine !== generation) return;
        var end = Math.min(view.length, written + SLICE);
        tbody.insertAdjacentHTML('beforeend', rowsHTML(written, end));
        written = end;
        more();
      }, 0);
    })();
  }

  function renderWindow() {
    var first = Math.max(0, Math.floor(scroller.scrollTop / rowHeight) - 20);
    var count = Math.ceil(scroller.clientHeight / rowHeight) + 40;
    var last = Math.min(view.length, first + count);
    var html = '<tr class="spacer"><td colspan="7" style="height:' + first * rowHeight + 'px"></td></tr>';
    for (var k = first; k < last; k++) html += rowHTML(view[k]);
    html += '<tr class="spacer"><td colspan="7" style="height:' + (view.length - last) * rowHeight + 'px"></td></tr>';
    tbody.innerHTML = html;
  }

  scroller.addEventListener('scroll', function () { if (virtual) renderWindow(); });

  tbody.addEventListener('click', function (e) {
    var tr = e.target.closest('tr[data-index]');
    if (tr) select(Number(tr.getAttribute('data-index')), false);
  });

  function applyFilter(text) {
    var needle = text.trim().toLowerCase();
    if (!haystacks && needle) {
      haystacks = rows.map(function (r) {
        return [r[LINE], r[TIME] || '', r[STATUS], r[PLACE] || '', r[WARN] || '', r[ERR] || ''].join('\u0001').toLowerCase();
      });
    }
    view = [];
    for (var i = 0; i < rows.length; i++) if (!needle || haystacks[i].indexOf(needle) >= 0) view.push(i);
    if (sort.column >= 0) sortView();
    renderTable();
    buildTrack();
    draw();
  }

  var filterTimer = 0;
  var filterInput = document.getElementById('filter');
  filterInput.addEventListener('input', function () {
    clearTimeout(filterTimer);
    filterTimer = setTimeout(function () { applyFilter(filterInput.value); }, rows.length > FULL_TABLE ? 200 : 0);
  });

  function sortView() {
    var key = COLUMNS[sort.column].key, sign = sort.descending ? -1 : 1;
    var keys = new Array(rows.length);
    view.forEach(function (i) { keys[i] = key(rows[i]); });
    view.sort(function (a, b) { return keys[a] < keys[b] ? -sign : keys[a] > keys[b] ? sign : a - b; });
  }

  function header() {
    var tr = document.querySelector('#table thead tr');
    tr.innerHTML = COLUMNS.map(function (c, n) { return '<th data-column="' + n + '">' + c.title + '</th>'; }).join('');
    tr.addEventListener('click', function (e) {
      var th = e.target.closest('th');
      if (!th) return;
      var column = Number(th.getAttribute('data-column'));
      sort.descending = sort.column === column ? !sort.descending : false;
      sort.column = column;
      Array.prototype.forEach.call(tr.children, function (h) { h.className = ''; });
      th.className = sort.descending ? 'desc' : 'asc';
      sortView();
      renderTable();
    });
  }

  // ---- Selection and profile ----------------------------------------------------------------
  function select(i, fromMap) {
    selected = i;
    var old = tbody.querySelector('tr.selected');
    if (old) old.classList.remove('selected');
    var position = view.indexOf(i);
    if (fromMap && position >= 0) {
      var tr = tbody.querySelector('tr[data-index="' + i + '"]');
      if (!tr && virtual) {
        scroller.scrollTop = position * rowHeight;
        renderWindow();
        tr = tbody.querySelector('tr[data-index="' + i + '"]');
      }
      if (tr) tr.scrollIntoView({ block: 'nearest' });
    }
    var row = tbody.querySelector('tr[data-index="' + i + '"]');
    if (row) row.classList.add('selected');
    showInView(rows[i]);
    draw();
    showProfile(rows[i]);
  }

  /** A reading selected off the screen (in the table, or by #line=N): the map moves to the
   *  place that holds it, or to all places. */
  function showInView(r) {
    if (!extent || r[OLAT] === null) return;
    var x = screenX(r[OLON]), y = screenY(r[OLAT]);
    if (x >= 0 && y >= 0 && x <= canvas.clientWidth && y <= canvas.clientHeight) return;
    var k = views.findIndex(function (v, n) { return n > 0 && r[OLAT] >= v.south && r[OLAT] <= v.north && r[OLON] >= v.west && r[OLON] <= v.east; });
    setView(k > 0 ? k : 0);
  }

  function showProfile(r) {
    var box = document.getElementById('profile');
    var title = '<h2>Line ' + r[LINE] + ' · ' + escapeHTML(r[STATUS]) + (r[PLACE] ? ' · ' + escapeHTML(r[PLACE]) : '') +
      (r[DIST] !== null ? ' · ' + (r[DIST] / 1000).toFixed(2) + ' km' : '') + (r[ELEV] !== null ? ' · ' + r[ELEV] + ' m' : '') + '</h2>';
    var p = r[PROF];
    if (!p) {
      box.innerHTML = title + '<p class="hint">' + escapeHTML(r[ERR] || (r[TLAT] !== null ? 'The sightline is shorter than one step of the profile (--step).' : 'No sightline: no terrain profile.')) + '</p>';
      return;
    }
    // See ReportRows.swift: the picture of ProfilePlot (locate --plot), its terrain thinned
    // keeping each stretch's highest sample.
    var length = Math.max(p[0], 1), eye = p[1], rayD = p[2], rayH = p[3], isHit = p[4] === 1;
    var target = p[5] !== null ? { d: p[5], h: p[6] } : null, sampled = p[7], voids = p[8], heights = p.slice(9);
    // The terrain: the heights of equal stretches, at their middles, in runs between voids,
    // each run reaching its stretches' edges; the target lies on the terrain, so it joins the
    // run it falls in (a crest kept at its height is then also at its place).
    var stretch = length / Math.max(heights.length, 1), runs = [], run = null;
    heights.forEach(function (h, k) {
      if (h === null) { run = null; return; }
      if (!run) { run = [k * stretch, h]; runs.push(run); }
      run.push((k + 0.5) * stretch, h);
      if (k === heights.length - 1 || heights[k + 1] === null) run.push(Math.min((k + 1) * stretch, Math.max(sampled, (k + 0.5) * stretch)), h);
    });
    if (target) {
      runs.forEach(function (r) {
        if (target.d < r[0] || target.d > r[r.length - 2]) return;
        for (var n = 0; n < r.length; n += 2) if (r[n] > target.d) { r.splice(n, 0, target.d, target.h); return; }
      });
    }
    var slope = rayD > 0 ? (rayH - eye) / rayD : 0;
    var rayEnd = isHit && target ? target : { d: isHit ? rayD : length, h: isHit ? rayH : eye + slope * length };
    // As tall as the panel lets a picture 600 units wide be (a taller panel, a taller picture).
    var W = 600, H = Math.round(Math.min(480, Math.max(240, W * (box.clientHeight - 34) / Math.max(box.clientWidth - 12, 1))));
    var left = 48, right = 10, top = 8, bottom = 40;
    var low = Math.min(eye, rayEnd.h), high = Math.max(eye, rayEnd.h);
    runs.forEach(function (run) { for (var k = 1; k < run.length; k += 2) { low = Math.min(low, run[k]); high = Math.max(high, run[k]); } });
    if (target) { low = Math.min(low, target.h); high = Math.max(high, target.h); }
    var pad = Math.max(10, (high - low) * 0.08);
    low -= pad; high += pad;
    var x = function (d) { return (left + d / length * (W - left - right)).toFixed(1); };
    var y = function (h) { return (top + (high - h) / (high - low) * (H - top - bottom)).toFixed(1); };
    var base = H - bottom;
    var svg = '<svg viewBox="0 0 ' + W + ' ' + H + '" role="img" aria-label="terrain profile">';
    var tickStep = niceStep(length / 1000 / 5);
    for (var t = 0; t <= length / 1000 + 1e-9; t += tickStep) {
      svg += '<line x1="' + x(t * 1000) + '" x2="' + x(t * 1000) + '" y1="' + top + '" y2="' + base + '" stroke="#e3e6ea"/>' +
        '<text x="' + x(t * 1000) + '" y="' + (base + 12) + '" font-size="10" text-anchor="middle" fill="#445">' + +t.toFixed(3) + '</text>';
    }
    var hStep = niceStep((high - low) / 4);
    for (var v = Math.ceil(low / hStep) * hStep; v <= high; v += hStep) {
      svg += '<line x1="' + left + '" x2="' + (W - right) + '" y1="' + y(v) + '" y2="' + y(v) + '" stroke="#e3e6ea"/>' +
        '<text x="' + (left - 4) + '" y="' + (+y(v) + 3) + '" font-size="10" text-anchor="end" fill="#445">' + Math.round(v) + '</text>';
    }
    // Voids: the DEM has no data there; a band, not a gap that reads as a valley.
    var voidLabels = '';
    voids.forEach(function (band) {
      var x0 = +x(band[0]), x1 = +x(band[1]);
      svg += '<rect class="void" x="' + x0 + '" y="' + top + '" width="' + Math.max(x1 - x0, 1).toFixed(1) + '" height="' + (base - top) +
        '" fill="' + PROFILE.voidFill + '" stroke="#c9ccd0" stroke-dasharray="2 2"><title>no data (DEM void)</title></rect>';
      if (x1 - x0 > 44) voidLabels += '<text x="' + ((x0 + x1) / 2).toFixed(1) + '" y="' + (base - 4) + '" font-size="10" text-anchor="middle" fill="#778">no data</text>';
    });
    runs.forEach(function (run) {
      if (run.length < 2) return;
      var path = 'M' + x(run[0]) + ',' + base;
      for (var k = 0; k < run.length; k += 2) path += 'L' + x(run[k]) + ',' + y(run[k + 1]);
      path += 'L' + x(run[run.length - 2]) + ',' + base + 'Z';
      svg += '<path class="terrain" d="' + path + '" fill="' + PROFILE.terrain + '" fill-opacity="0.85" stroke="#4a6a22"/>';
    });
    svg += voidLabels;
    if (target && !isHit && target.d - sampled > 0.1 * length) {
      svg += '<text class="unsampled" x="' + ((+x(sampled) + +x(target.d)) / 2).toFixed(1) + '" y="' + (base - 4) +
        '" font-size="10" text-anchor="middle" fill="#778">terrain not sampled (the ray was above it all)</text>';
    }
    svg += '<line class="eye-level" x1="' + left + '" x2="' + (W - right) + '" y1="' + y(eye) + '" y2="' + y(eye) + '" stroke="#888" stroke-dasharray="6 4"/>';
    svg += '<line class="ray" x1="' + x(0) + '" y1="' + y(eye) + '" x2="' + x(rayEnd.d) + '" y2="' + y(rayEnd.h) + '" stroke="' +
      (isHit ? COLOURS.hit : COLOURS.horizon) + '" stroke-width="2"' + (isHit ? '' : ' stroke-dasharray="6 4"') + '/>';
    if (target && !isHit) {
      svg += '<line class="line-of-sight" x1="' + x(0) + '" y1="' + y(eye) + '" x2="' + x(target.d) + '" y2="' + y(target.h) +
        '" stroke="' + PROFILE.target + '" stroke-width="1.5" stroke-dasharray="3 3"/>';
    }
    svg += '<circle class="observer" cx="' + x(0) + '" cy="' + y(eye) + '" r="4" fill="' + COLOURS.location + '"/>';
    if (target) {
      svg += '<circle class="target" cx="' + x(target.d) + '" cy="' + y(target.h) + '" r="4.5" fill="' + PROFILE.target +
        '" stroke="#222" stroke-width="1"><title>' + (isHit ? 'hit' : 'skyline point') + (r[ELEV] !== null ? ', ' + r[ELEV] + ' m' : '') + '</title></circle>';
    }
    // Legend and axis note.
    var lx = left, ly = H - 8;
    function entry(swatch, label) {
      svg += swatch + '<text x="' + (lx + 16) + '" y="' + (ly + 3) + '" font-size="10" fill="#445">' + label + '</text>';
      lx += 26 + label.length * 5.2;
    }
    entry('<rect x="' + lx + '" y="' + (ly - 4) + '" width="12" height="8" fill="' + PROFILE.terrain + '"/>', 'terrain');
    entry('<line x1="' + lx + '" x2="' + (lx + 12) + '" y1="' + ly + '" y2="' + ly + '" stroke="' + (isHit ? COLOURS.hit : COLOURS.horizon) + '" stroke-width="2"/>', 'ray');
    if (target) entry('<circle cx="' + (lx + 6) + '" cy="' + ly + '" r="4" fill="' + PROFILE.target + '" stroke="#222"/>', isHit ? 'hit' : 'skyline point');
    if (target && !isHit) entry('<line x1="' + lx + '" x2="' + (lx + 12) + '" y1="' + ly + '" y2="' + ly + '" stroke="' + PROFILE.target + '" stroke-dasharray="3 3" stroke-width="1.5"/>', 'line of sight');
    if (voids.length) entry('<rect x="' + lx + '" y="' + (ly - 4) + '" width="12" height="8" fill="' + PROFILE.voidFill + '" stroke="#c9ccd0"/>', 'no data (void)');
    svg += '<text x="' + (W - right) + '" y="' + (H - 8) + '" font-size="10" text-anchor="end" fill="#445">km · m, Earth\'s drop applied</text>';
    box.innerHTML = title + svg + '</svg>';
  }

  function niceStep(raw) {
    if (!(raw > 0)) return 1;
    var p = Math.pow(10, Math.floor(Math.log10(raw))), f = raw / p;
    return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
  }

  // ---- Start --------------------------------------------------------------------------------
  var selfTestHash = /^#selftest(?:=(.*))?$/.exec(location.hash);
  header();
  buildTrack();
  resize();
  if (extent) cosLat = Math.cos((views[current].south + views[current].north) / 2 * Math.PI / 180);
  fit();
  viewButtons();
  notice();
  legend();
  renderTable();
  if (virtual && tbody.querySelector('tr[data-index]')) rowHeight = tbody.querySelector('tr[data-index]').getBoundingClientRect().height || rowHeight;
  draw();
  // #line=N opens the page with line N selected (a link to one reading).
  var linked = /^#line=(\d+)$/.exec(location.hash);
  if (linked) {
    var wanted = rows.findIndex(function (r) { return r[LINE] === Number(linked[1]); });
    if (wanted >= 0) select(wanted, true);
  }
  if (imagesPending === 0) setTimeout(ready, 0);

  function imageLoaded() {
    if (--imagesPending === 0) ready();
  }

  function ready() {
    draw();
    // When the map and table first stood drawn, for scripts/bench-report.sh.
    document.body.setAttribute('data-ready-ms', String(Math.round(performance.now())));
    if (selfTestHash) afterTable(selfTest);
  }

  /** Under #selftest: exercise the page as a user would and write what happened into the DOM,
   *  for the browser test (Tests/TapSeekCLITests/ReportBrowserTests.swift) to read. */
  function selfTest() {
    var result = { rows: rows.length, renderedRows: tbody.querySelectorAll('tr[data-line]').length, lines: [] };
    tbody.querySelectorAll('tr[data-line]').forEach(function (tr) { result.lines.push(Number(tr.getAttribute('data-line'))); });
    result.errorLines = [];
    tbody.querySelectorAll('tr.status-error').forEach(function (tr) { result.errorLines.push(Number(tr.getAttribute('data-line'))); });
    result.sightlinesDrawn = drawn.filter(function (i) { return rows[i][TLAT] !== null; }).length;
    var painted = 0;
    if (extent) {
      var probe = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
      for (var q = 3; q < probe.length; q += 4 * 97) if (probe[q] > 0) painted++;
    }
    result.canvasPainted = painted > 0;
    mapSelfTest(result);
    profileSelfTest(result);
    var named = rows.find(function (r) { return r[STATUS] === 'hit' && r[PLACE]; });
    if (!named) return afterTable(function () { sortAndFinish(result); });
    var place = named[PLACE].split(',')[0];
    result.filter = place;
    filterInput.value = place;
    applyFilter(place);
    afterTable(function () {
      result.filteredLines = [];
      result.filteredPlaces = [];
      tbody.querySelectorAll('tr[data-line]').forEach(function (tr) {
        result.filteredLines.push(Number(tr.getAttribute('data-line')));
        result.filteredPlaces.push(tr.querySelector('td.place').textContent);
      });
      var first = tbody.querySelector('tr[data-line]');
      first.querySelector('td').click();
      result.clickedLine = Number(first.getAttribute('data-line'));
      result.selectedLine = Number((tbody.querySelector('tr.selected') || first).getAttribute('data-line'));
      var profile = document.querySelector('#profile svg path.terrain');
      result.profileShown = !!profile && profile.getAttribute('d').length > 10;
      result.profileRay = !!document.querySelector('#profile svg line.ray');
      filterInput.value = '';
      applyFilter('');
      afterTable(function () { sortAndFinish(result); });
    });
  }

  /** The map's views, what each shows, the basemap at the probe points of the hash
   *  (#selftest=LAT,LON;LAT,LON…, classified in the first view), the track and the notice. */
  function mapSelfTest(result) {
    result.views = views.map(function (v) { return { name: v.name, count: v.count }; });
    result.openView = current;
    result.buttons = document.querySelectorAll('#views button').length;
    function visible() {
      var lines = [];
      rows.forEach(function (r) {
        if (r[OLAT] === null) return;
        var x = screenX(r[OLON]), y = screenY(r[OLAT]);
        if (x >= 0 && y >= 0 && x <= canvas.clientWidth && y <= canvas.clientHeight) lines.push(r[LINE]);
      });
      return lines;
    }
    result.visibleLines = visible();
    result.noticeShown = !document.getElementById('notice').hidden;
    result.notice = document.getElementById('notice').textContent;
    result.viewLines = [];
    var opened = current;
    // Each click redraws the buttons: find each afresh, as a user's next click would.
    for (var k = 0; k < result.buttons; k++) {
      document.querySelector('#views button[data-view="' + k + '"]').click();
      result.viewLines.push(visible());
    }
    // The probes read the map itself: no names written over it.
    labelsShown = false;
    if (views.length) setView(0);
    var probes = selfTestHash && selfTestHash[1] ? decodeURIComponent(selfTestHash[1]).split(';') : [];
    var pixels = probes.length ? ctx.getImageData(0, 0, canvas.width, canvas.height).data : null;
    labelsShown = true;
    var ratio = canvas.width / canvas.clientWidth;
    result.probes = probes.map(function (text) {
      var at = text.split(',').map(Number), px = Math.round(screenX(at[1]) * ratio), py = Math.round(screenY(at[0]) * ratio);
      if (px < 0 || py < 0 || px >= canvas.width || py >= canvas.height) return 'outside';
      var o = 4 * (py * canvas.width + px), c = [pixels[o], pixels[o + 1], pixels[o + 2]];
      var near = function (colour) { return Math.abs(colour[0] - c[0]) + Math.abs(colour[1] - c[1]) + Math.abs(colour[2] - c[2]) <= 6; };
      return near(SEA) ? 'sea' : LAND.some(near) ? 'land' : 'other';
    });
    result.trackLines = track.length;
    result.trackPoints = track.reduce(function (n, l) { return n + l.length; }, 0);
    if (views.length) setView(opened);
  }

  /** Each located row's profile as drawn: its target marker, void bands and terrain. */
  function profileSelfTest(result) {
    result.profiles = [];
    var box = document.getElementById('profile');
    rows.forEach(function (r, i) {
      if (!r[PROF] || result.profiles.length >= 400) return;
      showProfile(r);
      var target = box.querySelector('svg circle.target');
      result.profiles.push({ line: r[LINE], target: !!target, targetY: target ? Number(target.getAttribute('cy')) : null,
        targetX: target ? Number(target.getAttribute('cx')) : null, voids: box.querySelectorAll('svg rect.void').length,
        terrain: box.querySelectorAll('svg path.terrain').length, crestY: crestNear(box, target) });
    });
    box.innerHTML = '';
  }

  /** The highest drawn terrain (least y) within 3 units of the target's x, from the paths. */
  function crestNear(box, target) {
    if (!target) return null;
    var tx = Number(target.getAttribute('cx')), best = null;
    box.querySelectorAll('svg path.terrain').forEach(function (path) {
      var points = path.getAttribute('d').replace(/[MZ]/g, '').split('L').map(function (p) { return p.split(',').map(Number); });
      for (var k = 1; k < points.length - 2; k++) {
        var a = points[k], b = points[k + 1];
        var lo = Math.min(a[0], b[0]), hi = Math.max(a[0], b[0]);
        if (hi < tx - 3 || lo > tx + 3) continue;
        var ya = a[1], yb = b[1];
        if (hi > lo) {
          var at = function (x) { return a[1] + (b[1] - a[1]) * (x - a[0]) / (b[0] - a[0]); };
          ya = at(Math.max(lo, tx - 3)); yb = at(Math.min(hi, tx + 3));
        }
        var y = Math.min(ya, yb);
        if (best === null || y < best) best = y;
      }
    });
    return best;
  }

  function sortAndFinish(result) {
    // Sort by distance (a header click), nearest first.
    document.querySelector('#table thead th[data-column="4"]').click();
    afterTable(function () { finish(result); });
  }

  function finish(result) {
    result.sortedLines = [];
    tbody.querySelectorAll('tr[data-line]').forEach(function (tr) { result.sortedLines.push(Number(tr.getAttribute('data-line'))); });
    // Click the middle of another hit's sightline on the map: its row must become selected.
    fit();
    draw();
    var other = drawn.filter(function (i) { return rows[i][STATUS] === 'hit' && i !== selected; });
    if (other.length) {
      var o = rows[other[other.length - 1]];
      var box = canvas.getBoundingClientRect();
      var mx = (screenX(o[OLON]) + screenX(o[TLON])) / 2, my = (screenY(o[OLAT]) + screenY(o[TLAT])) / 2;
      canvas.dispatchEvent(new MouseEvent('click', { clientX: box.left + mx, clientY: box.top + my, bubbles: true }));
      result.mapClickLine = rows[selected][LINE];
      var chosen = tbody.querySelector('tr.selected');
      result.mapClickRow = chosen ? Number(chosen.getAttribute('data-line')) : null;
    }
    // Zoom with the + button, then pan by dragging 50 px right and 30 px down.
    if (extent) {
      var before = camera.scale;
      document.getElementById('zoom-in').click();
      result.zoomFactor = camera.scale / before;
      var box2 = canvas.getBoundingClientRect(), x0 = screenX(extent.west), y0 = screenY(extent.north);
      var at = function (type, dx, dy) {
        canvas.dispatchEvent(new PointerEvent(type, { clientX: box2.left + 200 + dx, clientY: box2.top + 200 + dy, pointerId: 1, bubbles: true }));
      };
      at('pointerdown', 0, 0); at('pointermove', 25, 15); at('pointermove', 50, 30); at('pointerup', 50, 30);
      result.panned = [screenX(extent.west) - x0, screenY(extent.north) - y0];
    }
    result.resources = performance.getEntriesByType('resource').map(function (e) { return e.name; });
    result.problems = problems;
    var out = document.createElement('pre');
    out.id = 'selftest-result';
    out.textContent = JSON.stringify(result);
    document.body.appendChild(out);
  }
})();
