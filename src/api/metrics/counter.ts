/** A Dropwizard-style counter: a count that only goes up. */
export class Counter {
  count = 0;

  inc(n = 1): void {
    this.count += n;
  }
}
