/** A resource's name as prose with its article: "a sales order", "an invoice" ("A…" at `start`). */
export function resourceNoun(name: string, start = false): string {
  const label = name.replace(/_/g, ' ');
  // By the first letter: right for every name of the registry (its "u…" names sound "you").
  const article = /^[aeio]/.test(label) ? 'an' : 'a';
  return `${start ? article[0]!.toUpperCase() + article.slice(1) : article} ${label}`;
}
