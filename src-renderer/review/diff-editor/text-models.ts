/** Monaco text models of a review diff: creating them, reading them, patching main's texts in. */
import { monaco } from '../monaco';

export type TextModel = monaco.editor.ITextModel;

/**
 * A model for one side of a review diff. Bracket-pair colouring, a model option, would parse the
 * whole document on the main thread at first render (about 100 ms per side for a 1 MB file).
 */
export function createReviewModel(text: string, language: string): TextModel {
  const model = monaco.editor.createModel(text, language);
  model.updateOptions({
    bracketColorizationOptions: { enabled: false, independentColorPoolPerBracketType: false },
  });
  return model;
}

/** The model's text as the file has it (with its BOM, if any). */
export const textOf = (model: TextModel): string => model.getValue(undefined, true);

/**
 * Puts `text` into a model by replacing only the part that differs, so the person's cursor and scroll
 * survive when main sends back a text (an undo, a rebase). Falls back to setValue where the model's
 * own line-ending or BOM handling would make a partial edit come out wrong.
 */
export function replaceText(model: TextModel, text: string): void {
  const current = textOf(model);
  if (current === text) return;
  const max = Math.min(current.length, text.length);
  let start = 0;
  while (start < max && current.charCodeAt(start) === text.charCodeAt(start)) start++;
  let end = 0;
  while (
    end < max - start &&
    current.charCodeAt(current.length - 1 - end) === text.charCodeAt(text.length - 1 - end)
  )
    end++;
  if (current.charCodeAt(0) !== 0xfeff && text.charCodeAt(0) !== 0xfeff) {
    const range = monaco.Range.fromPositions(
      model.getPositionAt(start),
      model.getPositionAt(current.length - end),
    );
    model.applyEdits([{ range, text: text.slice(start, text.length - end) }]);
    if (textOf(model) === text) return;
  }
  model.setValue(text);
}
