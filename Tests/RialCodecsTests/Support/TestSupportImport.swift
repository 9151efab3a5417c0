// Every file of this target sees the shared fixtures (mirror paths, seeded generator, mutations).
@_exported import RialTestSupport
