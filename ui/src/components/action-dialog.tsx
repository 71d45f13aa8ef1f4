import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { asFailure, type ApiAnswer, type ApiFailure } from '../api/client';
import { refreshAll } from '../api/use-poll';
import { ErrorBox } from './error-box';
import { Modal } from './modal';
import { notify } from './toasts';

/** What an action dialog does when confirmed: one API request (`force` after a 409 and the user's OK). */
export type ActionRun = (force: boolean) => Promise<ApiAnswer<unknown>>;

/**
 * A dialog's one error: the failure of the latest request started in it, if that one failed. A
 * dialog whose body starts requests of its own (the edit dialog's what-if) shares it with
 * {@link ActionDialog}, so that starting any request clears the previous error and an error shows once.
 */
export interface ErrorSlot {
  readonly error: ApiFailure | undefined;
  set(error: ApiFailure | undefined): void;
}

/** An {@link ErrorSlot} kept in the component's state. */
export function useErrorSlot(): ErrorSlot {
  const [error, set] = useState<ApiFailure | undefined>(undefined);
  return { error, set };
}

export interface ActionDialogProps {
  readonly title: string;
  /** What will happen, and any inputs the action needs. */
  readonly children?: ComponentChildren;
  readonly confirmLabel: string;
  /** Shown in red: the action stops or deletes something. */
  readonly danger?: boolean;
  /** Whether a 409 (locked by a deployment) may be retried with `force=true`. */
  readonly forceable?: boolean;
  /** Whether confirming is possible now (inputs valid). */
  readonly ready?: boolean;
  readonly run: ActionRun;
  /** Where the dialog shows its error, when its body runs requests too (default: its own). */
  readonly errorSlot?: ErrorSlot;
  /** After success, with the answer (default: a toast naming the deployment, if one started). */
  readonly onDone?: (answer: ApiAnswer<unknown>) => void;
  readonly onClose: () => void;
}

/**
 * Every change the UI makes to something that exists goes through this confirmation (creating is
 * the Create page's own button, create-view.tsx): it says what will happen, runs the
 * request on confirm, and on failure stays open showing Marathon's `message` and `details` (a
 * 409 lock offers to retry with `force=true`). Success closes it and re-reads every page's data.
 */
export function ActionDialog(props: ActionDialogProps) {
  const [busy, setBusy] = useState(false);
  const ownSlot = useErrorSlot();
  const { error, set: setError } = props.errorSlot ?? ownSlot;
  const go = async (force: boolean): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      const answer = await props.run(force);
      props.onClose();
      refreshAll();
      if (props.onDone !== undefined) props.onDone(answer);
      else notify(answer.deploymentId !== undefined ? `${props.title}: deployment ${answer.deploymentId} started` : `${props.title}: done`);
    } catch (err) {
      setError(asFailure(err, props.title));
    } finally {
      setBusy(false);
    }
  };
  const locked = error?.status === 409 && props.forceable === true;
  return (
    <Modal title={props.title} onClose={props.onClose}>
      {/* Enter in a one-line field (the scale's count) confirms, as in a form; not in the JSON editor or on a radio. */}
      <div class="modal-body" onKeyDown={(e) => {
        const field = e.target;
        if (e.key === 'Enter' && field instanceof HTMLInputElement && (field.type === 'number' || field.type === 'text') && !busy && props.ready !== false) {
          e.preventDefault();
          void go(false);
        }
      }}>{props.children}</div>
      {error !== undefined && <ErrorBox error={error} />}
      <div class="modal-actions">
        <button type="button" onClick={props.onClose} disabled={busy}>Cancel</button>
        {locked && (
          <button type="button" class="danger" disabled={busy} onClick={() => void go(true)}>
            Force (stop the locking deployment)
          </button>
        )}
        <button
          type="button" class={props.danger === true ? 'danger primary' : 'primary'}
          disabled={busy || props.ready === false} onClick={() => void go(false)}
        >
          {busy ? 'Working…' : props.confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
