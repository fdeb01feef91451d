#pragma once
// The CPU backend's <cublas.h>: see cublas_v2.h (nothing of cuBLAS runs here).
#include "cublas_v2.h"
