// The page's words in the reader's language: the game's gettext catalogue, which the game
// server serves as JSON (/locale/de.json). English is the text in the code; a language the
// server has no catalogue for, or a catalogue that does not load, leaves the page English.

let messages = {};
let plurals = new Intl.PluralRules("en");

/** The first of `?lang=`, then the browser's languages, that the server has words for. */
export async function loadLanguage(wanted = navigator.languages || [navigator.language]) {
  const asked = new URLSearchParams(location.search).get("lang");
  const codes = [asked, ...wanted].filter(Boolean).map((code) => code.toLowerCase().split("-")[0]);
  for (const code of codes) {
    if (code === "en") return "en";
    if (!/^[a-z]{2,3}$/.test(code)) continue;
    try {
      const answer = await fetch(`/locale/${code}.json`);
      if (!answer.ok) continue;
      messages = (await answer.json()).messages || {};
      plurals = new Intl.PluralRules(code);
      document.documentElement.lang = code;
      return code;
    } catch {
      // no catalogue: the next language, else English
    }
  }
  return "en";
}

/** `text` in the reader's language, with `{name}` filled from `values`. */
export function t(text, values = {}) {
  const found = messages[text];
  return fill(typeof found === "string" && found ? found : text, values);
}

/** The singular or the plural of a count (`{count}` filled), as the language's plural rule picks. */
export function tn(singular, plural, count, values = {}) {
  const forms = messages[singular];
  let chosen = count === 1 ? singular : plural;
  if (Array.isArray(forms) && forms.every(Boolean)) {
    chosen = forms[Math.min(forms.length - 1, plurals.select(count) === "one" ? 0 : 1)];
  }
  return fill(chosen, { count, ...values });
}

function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

const ATTRIBUTES = ["placeholder", "aria-label", "title"];

/** Every text and read attribute of the page (index.html, in English) in the reader's language. */
export function translatePage(root) {
  const walker = root.createTreeWalker(root.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeValue.replace(/\s+/g, " ").trim();
    if (text && messages[text]) node.nodeValue = node.nodeValue.replace(node.nodeValue.trim(), t(text));
  }
  for (const element of root.querySelectorAll(ATTRIBUTES.map((name) => `[${name}]`).join(","))) {
    for (const name of ATTRIBUTES) {
      const value = element.getAttribute(name);
      if (value && messages[value.trim()]) element.setAttribute(name, t(value.trim()));
    }
  }
  root.title = t(root.title);
}
