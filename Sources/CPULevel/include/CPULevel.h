#ifndef PBGYM_CPU_LEVEL_H
#define PBGYM_CPU_LEVEL_H

/// The newest x86-64 microarchitecture level (psABI: 1 = baseline x86-64,
/// 2 = SSE4.2/POPCNT, 3 = AVX2/FMA/BMI2, 4 = AVX-512 F/BW/CD/DQ/VL) whose
/// instructions this CPU executes and this operating system saves the
/// registers of, as CPUID and XGETBV report them (so an emulator or a VM
/// that hides a feature is obeyed); 0 on other architectures.
///
/// Builds tuned for a level (`gym-train-x86-64-v4`, `libpbgym-x86-64-v3.so`)
/// are chosen by it at load time; the portable build runs everywhere.
int pbg_cpu_level(void);

#endif
