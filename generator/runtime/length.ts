// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * String length as JSON Schema counts it for `minLength`/`maxLength`: in
 * code points, so a surrogate pair (an emoji, say) is one character. The
 * generated validators import it from here rather than from Ajv's own
 * runtime, so they load nothing from outside the generated folder.
 */
export function codePointLength(s: string): number {
  const n = s.length;
  let count = 0;
  for (let i = 0; i < n; count++) {
    const unit = s.charCodeAt(i++);
    // A high surrogate followed by a low one is a single code point; a lone surrogate counts as one.
    if (
      unit >= 0xd800 &&
      unit <= 0xdbff &&
      i < n &&
      (s.charCodeAt(i) & 0xfc00) === 0xdc00
    )
      i++;
  }
  return count;
}
