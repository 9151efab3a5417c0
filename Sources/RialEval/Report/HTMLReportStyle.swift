/// The report's only style sheet, inlined in `<style>`: local system fonts, tables with
/// tabular figures, plots that shrink to the page, and print rules (no navigation,
/// figures and table rows kept whole, banner colours printed).
enum HTMLReportStyle {
    static let css = """
        :root { color-scheme: light; }
        body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", Helvetica, Arial, sans-serif;
          color: #1a1a1a; background: #ffffff; margin: 24px auto; max-width: 1380px; padding: 0 20px; }
        h1 { font-size: 26px; margin: 0 0 4px; }
        h2 { font-size: 20px; margin: 32px 0 8px; padding-bottom: 4px; border-bottom: 2px solid #d8d8d8; }
        h3 { font-size: 16px; margin: 20px 0 6px; }
        h4 { font-size: 14px; margin: 14px 0 4px; }
        p { margin: 6px 0; max-width: 1100px; }
        .meta { color: #555555; }
        .banner { border: 3px solid #b00020; background: #fde8eb; color: #8a0019; padding: 10px 16px; margin: 12px 0;
          font-size: 16px; }
        .banner strong { font-size: 22px; letter-spacing: 0.04em; margin-right: 8px; }
        .banner.simulated { border-color: #a15c00; background: #fff3e0; color: #6b3d00; }
        .basis { border: 1px solid #c9d6e3; background: #f4f8fb; padding: 10px 16px; margin: 12px 0; }
        nav { margin: 12px 0; font-size: 13px; }
        nav a { margin-right: 14px; }
        table { border-collapse: collapse; font-variant-numeric: tabular-nums; margin: 8px 0 12px; }
        th, td { border: 1px solid #d3d3d3; padding: 4px 8px; text-align: right; vertical-align: top; }
        thead th { background: #f0f0f0; font-weight: 600; vertical-align: bottom; }
        th.key, td.key, td.text { text-align: left; }
        tbody th { text-align: left; font-weight: 600; background: #fafafa; }
        tr.aggregate th, tr.aggregate td { border-top: 2px solid #888888; }
        .scroll { overflow-x: auto; max-width: 100%; }
        .ci { display: block; color: #666666; font-size: 11px; white-space: nowrap; }
        .sub { display: block; color: #666666; font-size: 11px; }
        .undef { color: #999999; cursor: help; }
        .swatch { display: inline-block; width: 18px; margin-right: 6px; vertical-align: middle; border-top: 3px solid; }
        .hash, code { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12px; }
        .hash, .path { word-break: break-all; }
        .pass { color: #1b7f3b; font-weight: 700; }
        .fail { color: #b00020; font-weight: 700; }
        .na { color: #777777; font-weight: 700; }
        ul.warnings { color: #8a4b00; font-size: 13px; margin: 4px 0 12px; }
        .plots { display: flex; flex-wrap: wrap; gap: 20px; align-items: flex-start; }
        figure { margin: 6px 0; max-width: 100%; }
        figcaption { font-size: 12px; color: #444444; margin-top: 4px; }
        svg { max-width: 100%; height: auto; }
        pre { white-space: pre-wrap; word-break: break-all; font-size: 11px; background: #f6f6f6; border: 1px solid #e0e0e0;
          padding: 8px; max-height: 480px; overflow: auto; }
        .note { color: #555555; font-size: 13px; }
        @page { size: A4 landscape; margin: 12mm; }
        @media print {
          body { margin: 0; max-width: none; padding: 0; font-size: 11px; }
          th, td { padding: 2px 5px; }
          table { font-size: 10.5px; }
          .banner { font-size: 13px; }
          .banner strong { font-size: 17px; }
          nav { display: none; }
          h2, h3, h4 { break-after: avoid; }
          .plots { gap: 2%; }
          .plots figure { width: 48% !important; }
          figure, tr, .banner, .basis, .keep { break-inside: avoid; }
          .scroll { overflow: visible; }
          pre { max-height: none; overflow: visible; }
          .banner, .basis, thead th { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
          a { color: inherit; text-decoration: none; }
        }
        """
}
