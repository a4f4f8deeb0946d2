/* The proxy's interface moved to shim/proxy.h (the proxy is portable now);
 * this name stays for the files that still include it. */
#include "../proxy.h"
