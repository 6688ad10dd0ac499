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
  var METRES_PER_DEGREE = 6371008.8 * Math.PI / 180;

  var data = JSON.parse(document.getElementById('report-data').textContent);
  var rows = data.rows;
  var relief = data.relief;
  var view = rows.map(function (_, i) { return i; });
  var selected = -1;
  var sort = { column: -1, descending: false };

  // ---- Map ----------------------------------------------------------------------------------
  var canvas = document.getElementById('map-canvas');
  var ctx = canvas.getContext('2d');
  var image = null;
  var cosLat = relief ? Math.cos((relief.south + relief.north) / 2 * Math.PI / 180) : 1;
  // World units: degrees of latitude; x is longitude times cos(mid latitude), so the map keeps
  // the ground's aspect as the relief image does.
  var camera = { scale: 1, x: 0, y: 0 };
  var drawn = [];
  var drag = null;

  function worldX(lon) { return (lon - relief.west) * cosLat; }
  function worldY(lat) { return relief.north - lat; }
  function screenX(lon) { return worldX(lon) * camera.scale + camera.x; }
  function screenY(lat) { return worldY(lat) * camera.scale + camera.y; }

  function resize() {
    var ratio = window.devicePixelRatio || 1;
    canvas.width = Math.max(1, Math.round(canvas.clientWidth * ratio));
    canvas.height = Math.max(1, Math.round(canvas.clientHeight * ratio));
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  }

  function fit() {
    if (!relief) return;
    var w = (relief.east - relief.west) * cosLat, h = relief.north - relief.south;
    var cw = canvas.clientWidth, ch = canvas.clientHeight;
    camera.scale = Math.min(cw / w, ch / h);
    camera.x = (cw - w * camera.scale) / 2;
    camera.y = (ch - h * camera.scale) / 2;
  }

  function draw() {
    var cw = canvas.clientWidth, ch = canvas.clientHeight;
    ctx.clearRect(0, 0, cw, ch);
    drawn = [];
    if (!relief) {
      ctx.fillStyle = '#556';
      ctx.font = '14px system-ui, sans-serif';
      ctx.fillText('No reading was located: nothing to map.', 16, 60);
      return;
    }
    if (image && image.complete) {
      ctx.imageSmoothingEnabled = camera.scale * (relief.north - relief.south) / relief.height < 2;
      ctx.drawImage(image, camera.x, camera.y, (relief.east - relief.west) * cosLat * camera.scale, (relief.north - relief.south) * camera.scale);
    }
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
    var i = rowAt(e.clientX - box.left, e.clientY - box.top);
    if (i >= 0) select(i, true);
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

  function legend() {
    var html = '<div><i style="background:' + COLOURS.hit + '"></i>sightline to a hit</div>' +
      '<div><i style="background:' + COLOURS.horizon + '"></i>sightline to the skyline</div>' +
      '<div><i style="background:' + COLOURS.location + '"></i>observer</div>';
    if (data.uncertainty) html += '<div><i style="background:rgba(230,120,20,0.35);border:1px solid #c85a0a"></i>95 % region</div>';
    html += '<div><i style="background:#ffd23f;border:1px solid #222"></i>selected</div>';
    if (relief && relief.low !== undefined) {
      html += '<div>' + Math.round(relief.low) + ' m <i class="ramp" style="background:linear-gradient(to right,' +
        'rgb(56,112,60) 0%,rgb(120,160,90) 30%,rgb(200,184,128) 60%,rgb(226,212,190) 85%,rgb(250,250,250) 100%)"></i> ' +
        Math.round(relief.high) + ' m</div>';
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
    draw();
    showProfile(rows[i]);
  }

  function showProfile(r) {
    var box = document.getElementById('profile');
    var title = '<h2>Line ' + r[LINE] + ' · ' + escapeHTML(r[STATUS]) + (r[PLACE] ? ' · ' + escapeHTML(r[PLACE]) : '') +
      (r[DIST] !== null ? ' · ' + (r[DIST] / 1000).toFixed(2) + ' km' : '') + '</h2>';
    var p = r[PROF];
    if (!p) {
      box.innerHTML = title + '<p class="hint">' + escapeHTML(r[ERR] || (r[TLAT] !== null ? 'The sightline is shorter than one step of the profile (--step).' : 'No sightline: no terrain profile.')) + '</p>';
      return;
    }
    var distance = p[0], eye = p[1], rayEnd = p[2], isHit = p[3] === 1, heights = p.slice(4);
    var W = 600, H = 240, left = 48, right = 10, top = 8, bottom = 26;
    var low = Math.min(eye, rayEnd), high = Math.max(eye, rayEnd);
    heights.forEach(function (h) { if (h !== null) { low = Math.min(low, h); high = Math.max(high, h); } });
    var pad = Math.max(10, (high - low) * 0.08);
    low -= pad; high += pad;
    var x = function (d) { return left + d / Math.max(distance, 1) * (W - left - right); };
    var y = function (h) { return top + (high - h) / (high - low) * (H - top - bottom); };
    var n = heights.length, path = '', open = false;
    for (var k = 0; k < n; k++) {
      var d = distance * k / Math.max(n - 1, 1);
      if (heights[k] === null) { if (open) path += 'L' + x(d).toFixed(1) + ',' + (H - bottom) + 'Z'; open = false; continue; }
      if (!open) { path += 'M' + x(d).toFixed(1) + ',' + (H - bottom) + 'L'; open = true; } else path += 'L';
      path += x(d).toFixed(1) + ',' + y(heights[k]).toFixed(1);
      if (k === n - 1) path += 'L' + x(d).toFixed(1) + ',' + (H - bottom) + 'Z';
    }
    var svg = '<svg viewBox="0 0 ' + W + ' ' + H + '" role="img" aria-label="terrain profile">';
    var tickStep = niceStep(distance / 1000 / 5);
    for (var t = 0; t <= distance / 1000 + 1e-9; t += tickStep) {
      svg += '<line x1="' + x(t * 1000) + '" x2="' + x(t * 1000) + '" y1="' + top + '" y2="' + (H - bottom) + '" stroke="#e3e6ea"/>' +
        '<text x="' + x(t * 1000) + '" y="' + (H - 10) + '" font-size="10" text-anchor="middle" fill="#445">' + +t.toFixed(3) + '</text>';
    }
    var hStep = niceStep((high - low) / 4);
    for (var v = Math.ceil(low / hStep) * hStep; v <= high; v += hStep) {
      svg += '<line x1="' + left + '" x2="' + (W - right) + '" y1="' + y(v) + '" y2="' + y(v) + '" stroke="#e3e6ea"/>' +
        '<text x="' + (left - 4) + '" y="' + (y(v) + 3) + '" font-size="10" text-anchor="end" fill="#445">' + Math.round(v) + '</text>';
    }
    svg += '<path class="terrain" d="' + path + '" fill="#6b8e3a" fill-opacity="0.85" stroke="#4a6a22"/>';
    svg += '<line class="ray" x1="' + x(0) + '" y1="' + y(eye) + '" x2="' + x(distance) + '" y2="' + y(rayEnd) + '" stroke="' +
      (isHit ? COLOURS.hit : COLOURS.horizon) + '" stroke-width="2"' + (isHit ? '' : ' stroke-dasharray="6 4"') + '/>';
    svg += '<circle cx="' + x(0) + '" cy="' + y(eye) + '" r="4" fill="' + COLOURS.location + '"/>';
    if (isHit) svg += '<circle cx="' + x(distance) + '" cy="' + y(rayEnd) + '" r="4" fill="' + COLOURS.hit + '"/>';
    svg += '<text x="' + (W - right) + '" y="' + (H - 1) + '" font-size="10" text-anchor="end" fill="#445">km from the observer · m above sea level, Earth\'s drop applied</text>';
    box.innerHTML = title + svg + '</svg>';
  }

  function niceStep(raw) {
    if (!(raw > 0)) return 1;
    var p = Math.pow(10, Math.floor(Math.log10(raw))), f = raw / p;
    return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
  }

  // ---- Start --------------------------------------------------------------------------------
  header();
  legend();
  resize();
  fit();
  renderTable();
  if (virtual && tbody.querySelector('tr[data-index]')) rowHeight = tbody.querySelector('tr[data-index]').getBoundingClientRect().height || rowHeight;
  draw();
  // #line=N opens the page with line N selected (a link to one reading).
  var linked = /^#line=(\d+)$/.exec(location.hash);
  if (linked) {
    var wanted = rows.findIndex(function (r) { return r[LINE] === Number(linked[1]); });
    if (wanted >= 0) select(wanted, true);
  }
  if (relief) {
    image = new Image();
    image.onload = function () {
      draw();
      // When the map and table first stood drawn, for scripts/bench-report.sh.
      document.body.setAttribute('data-ready-ms', String(Math.round(performance.now())));
      if (location.hash === '#selftest') afterTable(selfTest);
    };
    image.src = relief.src;
  } else if (location.hash === '#selftest') {
    afterTable(selfTest);
  }

  /** Under #selftest: exercise the page as a user would and write what happened into the DOM,
   *  for the browser test (Tests/TapSeekCLITests/ReportBrowserTests.swift) to read. */
  function selfTest() {
    var result = { rows: rows.length, renderedRows: tbody.querySelectorAll('tr[data-line]').length, lines: [] };
    tbody.querySelectorAll('tr[data-line]').forEach(function (tr) { result.lines.push(Number(tr.getAttribute('data-line'))); });
    result.errorLines = [];
    tbody.querySelectorAll('tr.status-error').forEach(function (tr) { result.errorLines.push(Number(tr.getAttribute('data-line'))); });
    result.sightlinesDrawn = drawn.filter(function (i) { return rows[i][TLAT] !== null; }).length;
    var reliefPixels = 0;
    if (relief) {
      var probe = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
      for (var q = 3; q < probe.length; q += 4 * 97) if (probe[q] > 0) reliefPixels++;
    }
    result.canvasPainted = reliefPixels > 0;
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
    if (relief) {
      var before = camera.scale;
      document.getElementById('zoom-in').click();
      result.zoomFactor = camera.scale / before;
      var box2 = canvas.getBoundingClientRect(), x0 = screenX(relief.west), y0 = screenY(relief.north);
      var at = function (type, dx, dy) {
        canvas.dispatchEvent(new PointerEvent(type, { clientX: box2.left + 200 + dx, clientY: box2.top + 200 + dy, pointerId: 1, bubbles: true }));
      };
      at('pointerdown', 0, 0); at('pointermove', 25, 15); at('pointermove', 50, 30); at('pointerup', 50, 30);
      result.panned = [screenX(relief.west) - x0, screenY(relief.north) - y0];
    }
    result.resources = performance.getEntriesByType('resource').map(function (e) { return e.name; });
    result.problems = problems;
    var out = document.createElement('pre');
    out.id = 'selftest-result';
    out.textContent = JSON.stringify(result);
    document.body.appendChild(out);
  }
})();
