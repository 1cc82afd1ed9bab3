// The JSON values and the input formats are the library's own API (`Person.extra`,
// `ImportSource.format`), defined with the readers and writers in FTSearchFormats: an app
// that imports FTSearchKit sees them without importing that module too.
@_exported public import FTSearchFormats
// Likewise the records (`Person`, `Animal`, `AnyRecord`, `Kind`, `Timestamp`), defined in
// FTSearchModels with no storage in them.
@_exported public import FTSearchModels
// And what searches take and give (`SearchRequest`, `SearchResults`, `Filter`, `SortKey`),
// defined in FTSearchEngine with the pipeline that answers them.
@_exported public import FTSearchEngine
