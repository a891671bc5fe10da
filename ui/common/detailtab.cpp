#include "ui/common/detailtab.h"
