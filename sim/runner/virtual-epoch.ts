/** Virtual time starts at 2026-01-01T00:00:00.000Z; traces and event timestamps count from here. */
export const VIRTUAL_EPOCH_MS = 1_767_225_600_000;
