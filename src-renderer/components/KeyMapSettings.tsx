/**
 * Settings → Keyboard. A placeholder so Settings builds: the keys helper's editor of the key map
 * replaces this body.
 */
export function KeyMapSettings() {
  return (
    <section className="dt-settings-section" aria-labelledby="dt-settings-keys">
      <h2 id="dt-settings-keys">Keyboard</h2>
    </section>
  );
}
