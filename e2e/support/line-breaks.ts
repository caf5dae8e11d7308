/** Where the browser wrapped a text: what each line of an element ends with. */
import type { Locator } from 'playwright-core';

/**
 * The text of each line the element's text is laid out on, in order (taken from where each character is
 * drawn). A text that does not wrap is one line.
 */
export function renderedLines(element: Locator): Promise<string[]> {
  return element.evaluate((root) => {
    const lines: string[] = [];
    let top: number | undefined;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (let i = 0; i < text.length; i++) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const box = range.getClientRects()[0];
        // A space the line ended with is not drawn: it belongs to the line it ends.
        const newLine = box !== undefined && (top === undefined || box.top > top + box.height / 2);
        if (newLine || lines.length === 0) lines.push(text[i]!);
        else lines[lines.length - 1] = `${lines[lines.length - 1]}${text[i]}`;
        if (newLine) top = box.top;
      }
    }
    return lines;
  });
}
