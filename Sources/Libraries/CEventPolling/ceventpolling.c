// The target is its header; SwiftPM wants a C target to have one source file.
#include "ceventpolling.h"
