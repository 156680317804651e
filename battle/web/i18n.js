// @ts-check
// The page's words in the reader's language: the game's gettext catalogue, which the game
// server serves as JSON (/locale/de.json). English is the text in the code; a language the
// server has no catalogue for, or a catalogue that does not load, leaves the page English.

/** @typedef {(n: number) => number} Rule */
/** @type {Record<string, string | string[]>} */
let messages = {};
/** @type {Rule} */
let pluralIndex = (n) => (n === 1 ? 0 : 1); // English: "nplurals=2; plural=(n != 1);"

/** The first of `?lang=`, then the browser's languages, that the server has words for. */
export async function loadLanguage(wanted = navigator.languages || [navigator.language]) {
  const asked = new URLSearchParams(location.search).get("lang");
  const codes = [asked, ...wanted].filter(Boolean).map((code) => /** @type {string} */ (code).toLowerCase().split("-")[0]);
  for (const code of codes) {
    if (code === "en") return "en";
    if (!/^[a-z]{2,3}$/.test(code)) continue;
    try {
      const answer = await fetch(`/locale/${code}.json`);
      if (!answer.ok) continue;
      const catalogue = await answer.json();
      messages = catalogue.messages || {};
      pluralIndex = pluralRule(catalogue.plural_forms || "");
      document.documentElement.lang = code;
      return code;
    } catch {
      // no catalogue: the next language, else English
    }
  }
  return "en";
}

/** `text` in the reader's language, with `{name}` filled from `values`.
 * @param {string} text @param {Record<string, unknown>} values */
export function t(text, values = {}) {
  const found = messages[text];
  return fill(typeof found === "string" && found ? found : text, values);
}

/** `value` as the reader's language writes a number, with `digits` decimals: 29.6 in English,
 * 29,6 in German (as the command line's `format_number` writes it).
 * @param {number} value @param {number} digits */
export function formatNumber(value, digits = 0) {
  const options = { minimumFractionDigits: digits, maximumFractionDigits: digits };
  return new Intl.NumberFormat(document.documentElement.lang || "en", options).format(value);
}

/** A percentage the reader's way, to the tenth unless `digits` says otherwise: "29.6%" in English,
 * "29,6 %" in German (the catalogue's "{percent}%", which the window and the terminal use too).
 * @param {number} value */
export function percent(value, digits = 1) {
  return t("{percent}%", { percent: formatNumber(value, digits) });
}

/** The form of a count (`{count}` filled) the catalogue's `Plural-Forms` picks: two for English and
 * German, one for Japanese, three for Polish and Russian.
 * @param {string} singular @param {string} plural @param {number} count @param {Record<string, unknown>} values */
export function tn(singular, plural, count, values = {}) {
  const forms = messages[singular];
  let chosen = count === 1 ? singular : plural;
  if (Array.isArray(forms) && forms.length && forms.every(Boolean)) {
    chosen = forms[Math.max(0, Math.min(forms.length - 1, pluralIndex(Math.abs(Math.trunc(count)))))];
  }
  return fill(chosen, { count, ...values });
}

// -- the catalogue's Plural-Forms ------------------------------------------------------------

const TOKEN = /\s*(\d+|n|\?|:|\|\||&&|==|!=|<=|>=|[<>%*/+\-!()])/y;
const BINARY = [["||"], ["&&"], ["==", "!="], ["<", ">", "<=", ">="], ["+", "-"], ["*", "/", "%"]];
/** @type {Record<string, (a: number, b: number) => number>} */
const APPLY = {
  "||": (a, b) => +(a || b), "&&": (a, b) => +(a && b), "==": (a, b) => +(a === b), "!=": (a, b) => +(a !== b),
  "<": (a, b) => +(a < b), ">": (a, b) => +(a > b), "<=": (a, b) => +(a <= b), ">=": (a, b) => +(a >= b),
  "+": (a, b) => a + b, "-": (a, b) => a - b, "*": (a, b) => a * b,
  "/": (a, b) => (b ? Math.trunc(a / b) : 0), "%": (a, b) => (b ? a % b : 0),
};

/**
 * The `plural=` expression of a catalogue's `Plural-Forms` header ("nplurals=3; plural=(n%10==1 &&
 * n%100!=11 ? 0 : ...);") as a function of n, read by a small parser of C's integer expressions
 * (never eval): an expression it cannot read gives English's rule.
 * @param {string} header @returns {Rule}
 */
export function pluralRule(header) {
  const found = /plural\s*=\s*([^;]+)/.exec(header);
  /** @type {Rule} */
  const english = (n) => (n === 1 ? 0 : 1);
  if (!found) return english;
  /** @type {string[]} */
  const tokens = [];
  TOKEN.lastIndex = 0;
  const text = found[1].trim();
  while (TOKEN.lastIndex < text.length) {
    const match = TOKEN.exec(text);
    if (!match) return english;
    tokens.push(match[1]);
  }
  let at = 0;
  const peek = () => tokens[at];
  const take = (/** @type {string} */ want) => {
    if (tokens[at] !== want) throw new Error(`expected ${want}`);
    at += 1;
  };
  /** @returns {Rule} */
  function primary() {
    const token = tokens[at++];
    if (token === "n") return (n) => n;
    if (token === "!") { const inner = primary(); return (n) => +!inner(n); }
    if (token === "-") { const inner = primary(); return (n) => -inner(n); }
    if (token === "(") { const inner = ternary(); take(")"); return inner; }
    if (/^\d+$/.test(token || "")) { const value = Number(token); return () => value; }
    throw new Error(`unexpected ${token}`);
  }
  /** @param {number} level @returns {Rule} */
  function binary(level) {
    if (level === BINARY.length) return primary();
    let left = binary(level + 1);
    while (BINARY[level].includes(peek())) {
      const apply = APPLY[tokens[at++]];
      const before = left, right = binary(level + 1);
      left = (n) => apply(before(n), right(n));
    }
    return left;
  }
  /** @returns {Rule} */
  function ternary() {
    const test = binary(0);
    if (peek() !== "?") return test;
    at += 1;
    const yes = ternary();
    take(":");
    const no = ternary();
    return (n) => (test(n) ? yes(n) : no(n));
  }
  try {
    const rule = ternary();
    return at === tokens.length ? (n) => Number(rule(n)) || 0 : english;
  } catch {
    return english;
  }
}

/** @param {string} text @param {Record<string, unknown>} values */
function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

const ATTRIBUTES = ["placeholder", "aria-label", "title"];

/** Every text and read attribute of the page (index.html, in English) in the reader's language. @param {Document} root */
export function translatePage(root) {
  const walker = root.createTreeWalker(root.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const value = /** @type {string} */ (node.nodeValue); // a text node's value is a string
    const text = value.replace(/\s+/g, " ").trim();
    if (text && messages[text]) node.nodeValue = value.replace(value.trim(), t(text));
  }
  for (const element of root.querySelectorAll(ATTRIBUTES.map((name) => `[${name}]`).join(","))) {
    for (const name of ATTRIBUTES) {
      const value = element.getAttribute(name);
      if (value && messages[value.trim()]) element.setAttribute(name, t(value.trim()));
    }
  }
  root.title = t(root.title);
}
