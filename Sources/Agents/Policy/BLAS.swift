import CBLAS

/// Process-wide OpenBLAS settings.
public enum BLAS {
    /// Pins OpenBLAS to one thread. Call once before a program spreads work
    /// over its own workers (``ParallelRunner``): with several callers at
    /// once, one BLAS thread each is faster (PLATFORM.md), and the
    /// policy's tiny products gain nothing from BLAS threads. The trainers
    /// call it at every iteration for determinism too: OpenBLAS splits a
    /// large enough product over its threads, and the last bits of the
    /// result then depend on how many there are (seen as a flaky
    /// REINFORCE bit-identity test while parallel tests changed the count).
    public static func useSingleThread() {
        openblas_set_num_threads(1)
    }
}
