import CBLAS

/// Process-wide OpenBLAS settings.
public enum BLAS {
    /// Pins OpenBLAS to one thread. Call once before a program spreads work
    /// over its own workers (``ParallelRunner``): with several callers at
    /// once, one BLAS thread each was 30% faster (PLATFORM.md), and the
    /// policy's tiny products gain nothing from BLAS threads.
    public static func useSingleThread() {
        openblas_set_num_threads(1)
    }
}
