import Hummingbird

/// The request context of every route: Hummingbird's core storage and the upload limit.
struct ServerContext: RequestContext {
    var coreContext: CoreRequestContextStorage

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    var maxUploadSize: Int { 1 << 20 }
}
