import CBLAS

/// Process-wide OpenBLAS settings and what the library chose for this CPU.
public enum BLAS {
    /// Pins OpenBLAS to one thread. Call once before a program spreads work
    /// over its own workers (``ParallelRunner``): with several callers at
    /// once, one BLAS thread each is faster, and the policy's tiny products
    /// gain nothing from BLAS threads. The trainers call it at every
    /// iteration. (Results never depend on it: the trainers' products are
    /// ``ExactProduct``s.)
    public static func useSingleThread() {
        openblas_set_num_threads(1)
    }

    /// The kernel family OpenBLAS picked for this CPU (`Haswell`,
    /// `SkylakeX`, `Zen`, …; `OPENBLAS_CORETYPE` overrides it at load time).
    public static var kernel: String {
        guard let name = openblas_get_corename() else { return "unknown" }
        return String(cString: name)
    }

    /// OpenBLAS's build line (version, threading, `DYNAMIC_ARCH`, kernel).
    public static var configuration: String {
        guard let text = openblas_get_config() else { return "unknown" }
        return String(cString: text)
    }
}
