const inverseGolden = (Math.sqrt(5) - 1) / 2;

/** The minimum of a unimodal `f` on [low, high], to within `tolerance` of x. */
export function goldenSection(f: (x: number) => number, low: number, high: number, tolerance = 1e-7): number {
    let a = low, b = high;
    let c = b - inverseGolden * (b - a), d = a + inverseGolden * (b - a);
    let fc = f(c), fd = f(d);
    while (b - a > tolerance) {
        if (fc <= fd) {
            b = d;
            d = c;
            fd = fc;
            c = b - inverseGolden * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + inverseGolden * (b - a);
            fd = f(d);
        }
    }
    return (a + b) / 2;
}
