/* SPDX-License-Identifier: MIT */
/* HTML output: escaping, a printf that escapes its strings, the page frame. */
#include <assert.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "reports/html.h"
#include "wt_git_rev.h"	/* generated at build time */

void wt_html_esc(FILE *f, const char *s)
{
	if (!s)
		return;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			/*
			 * C0 controls other than tab/newline/return (and DEL)
			 * are parse errors in HTML and illegal in SVG/XML:
			 * show U+FFFD instead of passing them on.
			 */
			if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') ||
			    c == 0x7f)
				fputs("&#xFFFD;", f);
			else
				fputc(c, f);
		}
	}
}

void wt_html_url(FILE *f, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	if (!s)
		return;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr("-._~/#", c))
			fputc(c, f);
		else
			fprintf(f, "%%%c%c", hex[c >> 4], hex[c & 15]);
	}
}

/* One conversion of wt_html_printf: *pp points after the '%'. */
static void put_conv(FILE *f, const char **pp, va_list *ap)
{
	const char *p = *pp;
	int prec = -1, lng = 0, size_t_arg = 0;

	if (*p == '.') {
		prec = 0;
		for (p++; *p >= '0' && *p <= '9'; p++)
			prec = prec * 10 + (*p - '0');
	}
	for (; *p == 'l'; p++)
		lng++;
	if (*p == 'z') {
		size_t_arg = 1;
		p++;
	}
	switch (*p) {
	case 's':
		wt_html_esc(f, va_arg(*ap, const char *));
		break;
	case 'c': {
		char s[2] = { (char)va_arg(*ap, int), 0 };

		wt_html_esc(f, s);
		break;
	}
	case 'd':
		if (lng >= 2)
			fprintf(f, "%lld", va_arg(*ap, long long));
		else if (lng == 1)
			fprintf(f, "%ld", va_arg(*ap, long));
		else
			fprintf(f, "%d", va_arg(*ap, int));
		break;
	case 'u':
		if (size_t_arg)
			fprintf(f, "%zu", va_arg(*ap, size_t));
		else if (lng >= 2)
			fprintf(f, "%llu", va_arg(*ap, unsigned long long));
		else if (lng == 1)
			fprintf(f, "%lu", va_arg(*ap, unsigned long));
		else
			fprintf(f, "%u", va_arg(*ap, unsigned));
		break;
	case 'x':
		fprintf(f, "%x", va_arg(*ap, unsigned));
		break;
	case 'f':
		fprintf(f, "%.*f", prec < 0 ? 6 : prec, va_arg(*ap, double));
		break;
	case 'g':
		fprintf(f, "%.*g", prec < 0 ? 6 : prec, va_arg(*ap, double));
		break;
	case '%':
		fputc('%', f);
		break;
	default:
		/* A format outside the subset is a programming error. */
		assert(!"wt_html_printf: unsupported conversion");
		abort();
	}
	*pp = p + 1;
}

void wt_html_printf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	const char *p = fmt;

	va_start(ap, fmt);
	while (*p) {
		const char *pct = strchr(p, '%');

		if (!pct) {
			fputs(p, f);
			break;
		}
		fwrite(p, 1, (size_t)(pct - p), f);
		p = pct + 1;
		put_conv(f, &p, &ap);
	}
	va_end(ap);
}

const char *wt_html_count(char *buf, size_t len, long long n)
{
	char digits[32];
	size_t nd, o = 0;
	int neg = n < 0;

	snprintf(digits, sizeof(digits), "%llu",
		 neg ? -(unsigned long long)n : (unsigned long long)n);
	nd = strlen(digits);
	assert(len >= sizeof(digits) + 8);
	if (neg)
		buf[o++] = '-';
	for (size_t i = 0; i < nd; i++) {
		if (i && (nd - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = 0;
	return buf;
}

/*
 * One stylesheet for the report and the index: a dense test-farm look
 * (small type, thin rules, colour only where it carries meaning).
 */
static const char css[] =
":root{--fg:#1f2328;--mu:#59636e;--ln:#d8dee4;--hd:#f6f8fa;"
"--pass:#1a7f37;--fail:#cf222e;--warn:#9a6700;"
"--mono:ui-monospace,'DejaVu Sans Mono','Liberation Mono',Menlo,monospace}\n"
"*{box-sizing:border-box}\n"
"body{margin:0;color:var(--fg);background:#fff;"
"font:13px/1.4 system-ui,-apple-system,'Segoe UI','DejaVu Sans',sans-serif}\n"
"main{max-width:1500px;margin:0 auto;padding:10px 16px 24px}\n"
"h1{font-size:18px;margin:0}h2{font-size:15px;margin:18px 0 6px;"
"padding-bottom:3px;border-bottom:1px solid var(--ln)}\n"
"h3{font-size:13px;margin:10px 0 4px}h4{font-size:12px;margin:8px 0 3px;"
"color:var(--mu);text-transform:uppercase;letter-spacing:.04em}\n"
"code,pre,.m{font-family:var(--mono);font-size:12px}\n"
"pre{margin:0;padding:4px 6px;background:var(--hd);border:1px solid var(--ln);"
"overflow-x:auto;white-space:pre-wrap;word-break:break-all}\n"
"a{color:#0550ae;text-decoration:none}a:hover{text-decoration:underline}\n"
"header.top{display:flex;align-items:center;gap:14px;padding:8px 0 10px;"
"border-bottom:2px solid var(--fg)}\n"
".verdict{font:700 22px/1 var(--mono);color:#fff;padding:7px 14px;border-radius:3px}\n"
".verdict.PASS{background:var(--pass)}.verdict.FAIL{background:var(--fail)}\n"
".sub{color:var(--mu);margin-top:2px}.sub b{color:var(--fg)}\n"
".badge{display:inline-block;font:700 11px/1 var(--mono);padding:2px 5px;"
"border-radius:2px;color:#fff;vertical-align:1px}\n"
".badge.PASS{background:var(--pass)}.badge.FAIL{background:var(--fail)}"
".badge.NONE{background:#8c959f}.badge.NEW{background:var(--warn)}\n"
"table{border-collapse:collapse;font-size:12px}\n"
"th,td{padding:2px 6px;text-align:left;vertical-align:top;"
"border-bottom:1px solid #eaeef2}\n"
"th{background:var(--hd);font-weight:600;border-bottom:1px solid var(--ln);"
"white-space:nowrap}\n"
"td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
"tr.grp td{background:#fbfcfd;font-weight:600;border-top:1px solid var(--ln)}\n"
"tr.FAIL td:first-child{box-shadow:inset 3px 0 var(--fail)}\n"
"tr.hl td{background:#fff1f0}\n"
"tr.unseen td{background:#fff8c5}tr.unseen td:first-child{box-shadow:inset 3px 0 var(--warn)}\n"
"table.kv th{background:none;border:none;color:var(--mu);font-weight:400;"
"padding-left:0}table.kv td{border:none}\n"
".mu{color:var(--mu)}.zero{color:#8c959f}.ok{color:var(--pass)}.bad{color:var(--fail);font-weight:600}\n"
".row{display:flex;flex-wrap:wrap;gap:10px 28px;align-items:flex-start}\n"
".row>div{min-width:0}\n"
"section.scn{margin-top:22px}\n"
"section.scn>h2 .suite{color:var(--mu);font-weight:400}\n"
".desc{color:var(--mu);margin:2px 0 6px;max-width:110ch}\n"
".failure{border:1px solid var(--ln);border-left:3px solid var(--fail);"
"padding:6px 10px 10px;margin:12px 0}\n"
".failure .msg{font-family:var(--mono);font-size:12px;color:var(--fail);"
"margin:2px 0 6px}\n"
".cut{color:var(--warn);margin:2px 0}\n"
"svg{display:block;max-width:100%;height:auto}\n"
"svg text{font-family:var(--mono);font-size:10px;fill:var(--fg)}\n"
"svg .lbl{font-size:11px}svg .mu{fill:var(--mu)}svg .culprit{font-weight:700}\n"
"svg .failstep{fill:var(--fail);font-weight:700}\n"
"svg.spark{display:inline-block;vertical-align:middle}\n"
".kp{font-size:11px}\n"
/* Scenario names, key paths and signatures have no spaces to wrap at:
 * let them break anywhere, or the index's 15-column table is wider than
 * a 1280-pixel window (tests/browser_check.sh measures it). */
"table.scenarios td.m,table.sigs td,table.failing td{overflow-wrap:anywhere}\n"
".replay{display:flex;gap:6px;align-items:stretch}\n"
".replay code{flex:1;padding:4px 6px;background:#1f2328;color:#f6f8fa;"
"border-radius:2px;white-space:pre-wrap;word-break:break-all}\n"
"button.copy{font:11px var(--mono);border:1px solid var(--ln);background:var(--hd);"
"cursor:pointer;padding:0 8px}\n"
"details>summary{cursor:pointer;color:#0550ae;margin:4px 0}\n"
"ol,ul{margin:0;padding-left:20px}\n"
".legend{color:var(--mu);font-size:11px;margin-top:2px}\n"
".legend i{display:inline-block;width:9px;height:9px;margin:0 3px 0 10px;"
"vertical-align:-1px}\n"
"footer{color:var(--mu);font-size:11px;margin-top:26px;border-top:1px solid var(--ln);"
"padding-top:4px}\n";

/* The page's only script: copy a replay command (select it if the clipboard is refused). */
static const char js[] =
"document.addEventListener('click',function(e){"
"var b=e.target;if(!b.classList||!b.classList.contains('copy'))return;"
"var c=document.getElementById(b.getAttribute('data-for'));if(!c)return;"
"function ok(){b.textContent='copied';"
"setTimeout(function(){b.textContent='copy';},1200);}"
"function sel(){var r=document.createRange();r.selectNodeContents(c);"
"var s=window.getSelection();s.removeAllRanges();s.addRange(r);"
"try{if(document.execCommand('copy'))ok();}catch(x){}}"
"if(navigator.clipboard&&window.isSecureContext)"
"navigator.clipboard.writeText(c.textContent).then(ok,sel);else sel();});";

void wt_html_begin(FILE *f, const char *title)
{
	wt_html_printf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
		       "<meta charset=\"utf-8\">\n"
		       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		       "<meta name=\"generator\" content=\"walktorture %s\">\n"
		       "<title>%s</title>\n<style>\n", WT_VERSION, title);
	fputs(css, f);
	fputs("</style>\n</head>\n<body>\n<main>\n", f);
}

void wt_html_end(FILE *f)
{
	wt_html_printf(f, "<footer>generated by walktorture %s (%s)</footer>\n"
		       "</main>\n<script>\n", WT_VERSION, WT_GIT_REV);
	fputs(js, f);
	fputs("\n</script>\n</body>\n</html>\n", f);
}
