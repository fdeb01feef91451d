#include "report/html_page.hpp"

#include <fmt/format.h>

#include "report/markup.hpp"
#include "report/report_format.hpp"

namespace cugrade {
namespace {

// One style sheet for the student page and the class summary. System fonts only: a page that
// fetched a web font would not be self-contained. Colours pass WCAG AA contrast on white.
constexpr std::string_view kStyle = R"css(
:root { --pass: #15803d; --fail: #b91c1c; --skip: #b45309; --you: #2563eb; --ref: #9ca3af;
        --ink: #111827; --muted: #4b5563; --line: #e5e7eb; --soft: #f9fafb; }
* { box-sizing: border-box; }
body { margin: 0; background: #f3f4f6; color: var(--ink);
       font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
main { max-width: 1040px; margin: 0 auto; padding: 24px 20px 48px; }
header.page, section { background: #fff; border: 1px solid var(--line); border-radius: 8px;
                       padding: 16px 20px; margin-bottom: 16px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h1 .subtitle { font-weight: 400; color: var(--muted); }
h2 { font-size: 17px; margin: 0 0 10px; }
h3 { font-size: 15px; margin: 14px 0 6px; }
p { margin: 6px 0; }
.muted { color: var(--muted); }
.score { display: flex; align-items: baseline; gap: 12px; flex-wrap: wrap; margin: 8px 0; }
.score .big { font-size: 34px; font-weight: 700; }
.meter { height: 10px; background: var(--line); border-radius: 5px; overflow: hidden; max-width: 480px; }
.meter > div { height: 100%; background: var(--pass); }
.meter.low > div { background: var(--fail); }
.meter.mid > div { background: var(--skip); }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px;
         font-weight: 700; letter-spacing: .03em; color: #fff; white-space: nowrap; }
.badge.pass { background: var(--pass); } .badge.fail { background: var(--fail); }
.badge.skip { background: var(--skip); }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 10px 0 0;
         font-size: 13px; }
.facts dt { color: var(--muted); } .facts dd { margin: 0; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; font-size: 13.5px; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--soft); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.fail td:first-child { box-shadow: inset 3px 0 0 var(--fail); }
pre { background: #111827; color: #f9fafb; padding: 10px 12px; border-radius: 6px; overflow-x: auto;
      font-size: 12.5px; white-space: pre-wrap; overflow-wrap: anywhere; }
code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12.5px; }
.failure { border-left: 3px solid var(--fail); padding: 4px 0 4px 12px; margin: 12px 0; }
.failure h3 { margin-top: 0; }
.failure table { width: auto; min-width: 50%; }
.pattern { font-style: italic; }
ul.notes { margin: 4px 0; padding-left: 20px; }
.legend { display: flex; gap: 16px; font-size: 13px; color: var(--muted); margin: 4px 0 8px; }
.legend .swatch { display: inline-block; width: 12px; height: 12px; border-radius: 2px;
                  vertical-align: -1px; margin-right: 5px; }
.swatch.you { background: var(--you); } .swatch.ref { background: var(--ref); }
svg { max-width: 100%; height: auto; display: block; }
svg text { font: 12px system-ui, "DejaVu Sans", sans-serif; fill: var(--ink); }
svg .axis { stroke: var(--muted); stroke-width: 1; }
svg .grid { stroke: var(--line); stroke-width: 1; }
svg .you { fill: var(--you); } svg .ref { fill: var(--ref); }
svg .whisker { stroke: var(--ink); stroke-width: 1.5; }
svg .bar-pass { fill: var(--pass); } svg .bar-fail { fill: var(--fail); } svg .bar-skip { fill: var(--skip); }
svg .dot { fill: var(--you); fill-opacity: .6; stroke: #fff; stroke-width: 1; }
svg .band { fill: var(--ref); fill-opacity: .35; }
svg .median { stroke: var(--ink); stroke-width: 2.5; }
svg .parity { stroke: var(--pass); stroke-width: 1.5; stroke-dasharray: 4 3; }
svg .muted { fill: var(--muted); }
.cards { display: flex; gap: 12px; flex-wrap: wrap; }
.card { flex: 1 1 140px; background: var(--soft); border: 1px solid var(--line); border-radius: 6px;
        padding: 8px 12px; }
.card .value { font-size: 22px; font-weight: 700; }
.card .label { font-size: 12.5px; color: var(--muted); }
.two { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 16px; }
.scroll { overflow-x: auto; }
table.steps td.diagnosis { overflow-wrap: anywhere; }
table.perf { font-size: 12.5px; }
table.perf td { white-space: nowrap; }
table.perf td:last-child { white-space: normal; overflow-wrap: anywhere; min-width: 9em; }
.notice { border-left: 3px solid var(--skip); padding: 4px 0 4px 12px; }
.share { display: inline-block; height: 9px; background: var(--you); border-radius: 2px; vertical-align: middle; }
.sbs { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 12px; }
.code { border: 1px solid var(--line); border-radius: 6px; overflow-x: auto; font: 12px/1.45 ui-monospace, "DejaVu Sans Mono", monospace; }
.code > div { white-space: pre; padding: 0 8px 0 0; }
.code .who { font: 600 13px system-ui, "DejaVu Sans", sans-serif; background: var(--soft); padding: 5px 8px; white-space: normal; }
.code .file { color: var(--muted); background: var(--soft); padding: 2px 8px; border-top: 1px solid var(--line); }
.code .fold { color: var(--muted); font-style: italic; padding-left: 8px; }
.code .ln { display: inline-block; width: 5.5em; text-align: right; padding-right: 8px; margin-right: 6px; color: var(--muted); user-select: none; }
.code .ln b { float: left; padding-left: 4px; color: var(--ink); }
.code .base { color: #9ca3af; }
.code .r0 { background: #fde68a; } .code .r1 { background: #bfdbfe; } .code .r2 { background: #bbf7d0; }
.code .r3 { background: #fbcfe8; } .code .r4 { background: #ddd6fe; } .code .r5 { background: #fed7aa; }
@media (max-width: 760px) { .two, .sbs { grid-template-columns: 1fr; } }
footer { font-size: 12px; color: var(--muted); text-align: center; }
)css";

}  // namespace

std::string html_document(std::string_view title, std::string_view body) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n<main>\n{}</main>\n</body>\n</html>\n",
      escape_markup(title), kStyle, body);
}

std::string_view html_status_class(Outcome outcome) {
  const std::string word = status_word(outcome);
  if (word == "PASS") return "pass";
  return word == "FAIL" ? "fail" : "skip";
}

std::string html_status_badge(Outcome outcome) {
  return fmt::format("<span class=\"badge {}\" title=\"{}\">{}</span>", html_status_class(outcome),
                     to_string(outcome), status_word(outcome));
}

}  // namespace cugrade
