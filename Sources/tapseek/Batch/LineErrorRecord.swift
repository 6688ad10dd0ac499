/// The record a `--batch` service writes for an input line it cannot answer:
/// `{"line":N,"error":{"code":"bad-input","message":…}}`. One per bad line, so output lines stay
/// one-to-one with input lines.
enum LineErrorRecord {
    static func write(line: Int, message: String, to out: inout OutputBuffer) {
        out.append("{\"line\":")
        out.append(String(line))
        out.append(",\"error\":{\"code\":\"bad-input\",\"message\":")
        out.appendJSONString(message)
        out.append("}}")
    }
}
