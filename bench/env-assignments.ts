/**
 * `NAME=value` words separated by spaces (a bench's setting such as `BENCH_PULLER_BESIDE`) as
 * variables; `NAME=` unsets NAME (undefined), which an empty value would not do for every reader.
 * Throws on a word that is not an assignment, so a typo does not measure the default by mistake.
 */
export function envAssignments(text: string): Record<string, string | undefined> {
  const variables: Record<string, string | undefined> = {};
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(word);
    if (!match) throw new Error(`not NAME=value: ${JSON.stringify(word)}`);
    variables[match[1] as string] = match[2] === '' ? undefined : match[2];
  }
  return variables;
}
