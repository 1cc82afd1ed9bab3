// The JSON values and the input formats are the library's own API (`Person.extra`,
// `ImportSource.format`), defined with the readers and writers in FTSearchFormats: an app
// that imports FTSearchKit sees them without importing that module too.
@_exported public import FTSearchFormats
