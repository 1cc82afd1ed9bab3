CommandLineTool(root: FTSearch.self, version: FTSearch.version,
                errorReport: ErrorReporting.report(for:)).main()
