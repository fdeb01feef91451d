// The samples' Common/ helper headers, included by quoted name so that cugrade stages them next
// to the wrapper, where the samples' own `#include <helper_cuda.h>` (angled) then finds them.
#include "exception.h"
#include "helper_string.h"
#include "helper_cuda.h"
#include "helper_timer.h"
#include "helper_image.h"
#include "helper_functions.h"
