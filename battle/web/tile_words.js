// @ts-check
// A tile kind in words, as battle/rules/wording.py's tile_words names it in every sentence of the
// game: "7-circles" ("Münzen-Sieben"). Each is a whole word of the catalogue, never a value glued to
// a suit, since a language may name the suit first and the value in letters.

import { t } from "./i18n.js";

/** The kind's name in the reader's language (kinds in the rules' order: m, p, s; values 1-9). @param {number} kind */
export function tileWords(kind) {
  return [
    t("1-characters"),
    t("2-characters"),
    t("3-characters"),
    t("4-characters"),
    t("5-characters"),
    t("6-characters"),
    t("7-characters"),
    t("8-characters"),
    t("9-characters"),
    t("1-circles"),
    t("2-circles"),
    t("3-circles"),
    t("4-circles"),
    t("5-circles"),
    t("6-circles"),
    t("7-circles"),
    t("8-circles"),
    t("9-circles"),
    t("1-bamboo"),
    t("2-bamboo"),
    t("3-bamboo"),
    t("4-bamboo"),
    t("5-bamboo"),
    t("6-bamboo"),
    t("7-bamboo"),
    t("8-bamboo"),
    t("9-bamboo"),
  ][kind];
}
