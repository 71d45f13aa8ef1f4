/**
 * An error's message on one line, for the driver's log: OpenSSL's messages end in a newline (a
 * TLS `--master` that answers plain HTTP: `…ssl3_record.c:350:\n`), which split a text log record.
 */
export function oneLine(message: string): string {
  return message.replace(/\s+/g, ' ').trim();
}
