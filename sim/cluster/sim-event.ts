/** Placeholder; the simulated cluster defines the real union. */
export type SimEvent = { readonly kind: 'offerCycle' };
