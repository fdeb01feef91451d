#include "cpu_build.hpp"
