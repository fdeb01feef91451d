#pragma once
// The timing stage uses the ceilings measured by `cugrade calibrate` (device/ceilings.hpp).
#include "device/ceilings.hpp"
