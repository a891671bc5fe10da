#include "detailtab.h"
