// OpenBLAS's CBLAS interface plus its thread controls (openblas_set_num_threads).
#include <cblas.h>
