/**
 * The person's edits of the proposal: each keystroke restarts a debounce, after which the whole
 * proposed text goes to main. While an edit waits or is in flight, main's hunks lag the text shown.
 */
import { textOf, type TextModel } from './text-models';

/** Edits of the proposal go to main this long after the last keystroke. */
export const EDIT_DEBOUNCE_MS = 400;

/** What the models hold, as far as main knows it, and the file they belong to. */
export interface SyncedTexts {
  fileKey: string;
  base: string;
  proposed: string;
  /** True while a text from main is being put into a model: that is not the person's edit. */
  applyingRemote: boolean;
}

export interface ProposalEditsHost {
  texts: SyncedTexts;
  /** The model the proposed side shows now. */
  shownModel(): TextModel | null;
  /** The file index edits made now belong to. */
  fileIndex(): number;
  /** The proposed text main last sent for the file shown. */
  mainProposedText(): string | undefined;
  /** Sends an edited proposed text; resolves false when main refused it. */
  send(fileIndex: number, proposedText: string): Promise<boolean>;
  /** Whether edits are pending may have changed. */
  changed(): void;
}

export class ProposalEdits {
  private timer: number | undefined = undefined;
  private model: TextModel | null = null;
  private fileIndex = 0;
  private inFlight = 0;

  constructor(private readonly host: ProposalEditsHost) {}

  /** An edit waits for its debounce or for main's answer. */
  get pending(): boolean {
    return this.timer !== undefined || this.inFlight > 0;
  }

  /** Takes the person's typing in `model` (the proposed side of a newly shown file). */
  watch(model: TextModel): void {
    model.onDidChangeContent(() => {
      if (this.host.texts.applyingRemote) return;
      if (this.timer !== undefined) window.clearTimeout(this.timer);
      this.model = model;
      this.fileIndex = this.host.fileIndex();
      this.timer = window.setTimeout(() => void this.flush(), EDIT_DEBOUNCE_MS);
      this.host.changed();
    });
  }

  /** Sends the edit waiting for its debounce, if any, now. */
  async flush(): Promise<void> {
    if (this.timer === undefined || !this.model) return;
    window.clearTimeout(this.timer);
    this.timer = undefined;
    const { host } = this;
    const sent = this.model;
    const text = textOf(sent);
    const ownModel = host.shownModel() === sent;
    if (ownModel) host.texts.proposed = text;
    this.inFlight += 1;
    host.changed();
    const ok = await host.send(this.fileIndex, text);
    this.inFlight -= 1;
    // Refused: what main has is still its last text; the next keystroke sends the whole text again.
    if (!ok && ownModel && host.shownModel() === sent) {
      host.texts.proposed = host.mainProposedText() ?? text;
    }
    host.changed();
  }
}
