/**
 * A Mesos body or stream that cannot be encoded or decoded: malformed protobuf or JSON, a value of
 * the wrong type, a missing required field, a broken RecordIO frame. The driver turns it into an
 * event (for a stream: close it and resubscribe, spec §1.4, "protobufjs notes" in §9) and never
 * lets it crash the process.
 */
export class MesosCodecError extends Error {
  override readonly name = 'MesosCodecError';

  /**
   * @param message what is wrong, for logs
   * @param path where in the message (e.g. `Event.update.status.state`), when known
   */
  constructor(message: string, readonly path?: string) {
    super(path === undefined ? message : `${path}: ${message}`);
  }
}
