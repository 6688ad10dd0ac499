#include <gdal.h>
#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_string.h>
#include <ogr_srs_api.h>
#include <ogr_api.h>
#include <gdalwarper.h>
