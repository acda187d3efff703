/* NVFP4 number formats and the blocked scale layout (see format.h). */
#include "format.h"

#include <math.h>

double nvfp4_e2m1_decode(unsigned code)
{
    unsigned c = code & 0xFu;
    unsigned e = (c >> 1) & 3u, m = c & 1u;
    /* e = 0 is subnormal: m * 0.5; otherwise 2^(e-1) * (1 + m/2). */
    double mag = e == 0 ? 0.5 * (double)m : ldexp(1.0 + 0.5 * (double)m, (int)e - 1);
    return (c & 8u) ? -mag : mag;
}

double nvfp4_e4m3_decode(unsigned code)
{
    unsigned c = code & 0xFFu;
    unsigned e = (c >> 3) & 0xFu, m = c & 7u;
    double mag;
    if (e == 15u && m == 7u)
        return NAN; /* e4m3fn has only this NaN pattern (both signs) and no infinity */
    if (e == 0u)
        mag = ldexp((double)m, -9); /* subnormal: m/8 * 2^(1-7) */
    else
        mag = ldexp(1.0 + (double)m / 8.0, (int)e - 7);
    return (c & 0x80u) ? -mag : mag;
}

double nvfp4_half_to_double(uint16_t h)
{
    unsigned s = (h >> 15) & 1u, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
    double mag;
    if (e == 0x1Fu)
        mag = m ? NAN : INFINITY;
    else if (e == 0u)
        mag = ldexp((double)m, -24);
    else
        mag = ldexp(1.0 + (double)m / 1024.0, (int)e - 15);
    return s ? -mag : mag;
}

int nvfp4_pad_rows(int rows)
{
    return (rows + 127) / 128 * 128;
}

size_t nvfp4_sf_bytes(int rows, int K)
{
    return (size_t)nvfp4_pad_rows(rows) * (size_t)(K / 16);
}

size_t nvfp4_sf_offset(int i, int j, int K)
{
    size_t rest_k = (size_t)(K / 64);
    return (size_t)(i / 128) * rest_k * 512u + (size_t)(j / 4) * 512u + (size_t)(i % 32) * 16u +
           (size_t)((i % 128) / 32) * 4u + (size_t)(j % 4);
}
