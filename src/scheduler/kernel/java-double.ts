/**
 * A number as the JVM writes a double (`Double.toString`, and so Scala's): `1.0`, `0.5`, `128.0`,
 * and outside [0.001, 10^7) computerized scientific notation, `1.0E-7`, `1.5E7`. Marathon writes
 * its doubles so in task variables (`MARATHON_APP_RESOURCE_CPUS`) and in validation messages
 * (`got 0.5, expected 0.0`); the one writer of that format here.
 */
export function javaDouble(n: number): string {
  const magnitude = Math.abs(n);
  if (n === 0 || (magnitude >= 1e-3 && magnitude < 1e7)) return Number.isInteger(n) ? n.toFixed(1) : String(n);
  const [mantissa, exponent] = n.toExponential().split('e');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${exponent.replace('+', '')}`;
}
