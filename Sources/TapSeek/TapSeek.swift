// The public library: everything a caller needs comes through `import TapSeek`.
@_exported import TapSeekCore
@_exported import TapSeekGDAL
