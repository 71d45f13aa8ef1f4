/** Time port: epoch milliseconds, virtual in the simulator, real in production. */
export interface Clock {
  nowMs(): number;
}
