/*
 * topokit.h - umbrella header of libtopokit.  See topokit(7).
 */
#ifndef TOPOKIT_H
#define TOPOKIT_H

#define TOPOKIT_VERSION_MAJOR 0
#define TOPOKIT_VERSION_MINOR 1

#include "tk_core.h"
#include "tk_par.h"
#include "tk_io.h"
#include "tk_kv.h"
#include "tk_gen.h"
#include "tk_metric.h"
#include "tk_spectral.h"
#include "tk_auto.h"
#include "tk_paths.h"
#include "tk_bounds.h"
#include "tk_pattern.h"
#include "tk_route.h"
#include "tk_load.h"
#include "tk_stats.h"
#include "tk_antmill.h"
#include "tk_mcf.h"
#include "tk_sim.h"
#include "tk_vc.h"

#endif /* TOPOKIT_H */
