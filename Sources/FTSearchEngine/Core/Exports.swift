// The engine's API is written in the records' and formats' types (`Kind`, `AnyRecord`,
// `JSONValue`, `ImportSource.format`): a module that imports the engine sees them too.
@_exported public import FTSearchFormats
@_exported public import FTSearchModels
