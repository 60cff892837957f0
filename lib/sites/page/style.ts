/** The sandbox's stylesheet, served as /_sandbox/style.css: plain, readable, like an ordinary business web app. */
export const STYLE_CSS = `
*{box-sizing:border-box}
[hidden]{display:none!important}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2933;background:#f5f7fa}
a{color:#1d4ed8;text-decoration:none}a:hover{text-decoration:underline}
.topbar{display:flex;align-items:center;gap:18px;padding:0 20px;height:52px;background:#1e293b;color:#e2e8f0}
.topbar a{color:#e2e8f0}.topbar .home{font-weight:700;letter-spacing:.02em}.topbar .app{font-weight:600;color:#93c5fd}
.topbar .menu{display:flex;gap:4px;flex:1}.topbar .menu a{padding:6px 10px;border-radius:6px}
.topbar .menu a.active,.topbar .menu a:hover{background:#334155;text-decoration:none}
.topbar .account{display:flex;gap:10px;align-items:center;font-size:14px}
main{max-width:1100px;margin:20px auto;padding:0 20px}
footer{max-width:1100px;margin:30px auto;padding:0 20px;color:#94a3b8;font-size:12px}
h1{font-size:24px;margin:8px 0 16px}h2{font-size:19px;margin:20px 0 10px}h3{font-size:16px}
.crumbs{font-size:13px;color:#64748b;margin-bottom:6px}
.flash{background:#ecfdf5;border:1px solid #a7f3d0;color:#065f46;padding:10px 14px;border-radius:8px;margin-bottom:14px}
.errors,.error{background:#fef2f2;border:1px solid #fecaca;color:#991b1b;padding:10px 14px;border-radius:8px;margin-bottom:14px}
.field-error{color:#b91c1c;font-size:13px}
.card{background:#fff;border:1px solid #e2e8f0;border-radius:10px;padding:16px;margin-bottom:16px}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(230px,1fr));gap:14px}
.row{display:flex;gap:12px;align-items:center;flex-wrap:wrap}.spacer{flex:1}
table{width:100%;border-collapse:collapse;background:#fff;border:1px solid #e2e8f0;border-radius:10px;overflow:hidden}
th,td{text-align:left;padding:8px 10px;border-bottom:1px solid #eef2f7;vertical-align:top}
th{background:#f8fafc;font-size:13px;color:#475569;font-weight:600}
tr:hover td{background:#f8fbff}
form.stack{display:grid;gap:12px;max-width:560px}
label{font-weight:500;font-size:14px;display:block}
input[type=text],input[type=email],input[type=password],input[type=number],input[type=search],input[type=tel],input:not([type]),select,textarea{
  width:100%;padding:8px 10px;border:1px solid #cbd5e1;border-radius:6px;font:inherit;background:#fff}
textarea{min-height:110px}
button,.button{display:inline-block;padding:8px 14px;border-radius:6px;border:1px solid #1d4ed8;background:#2563eb;color:#fff;font:inherit;cursor:pointer}
button.secondary,.button.secondary{background:#fff;color:#1d4ed8}
button.danger{background:#dc2626;border-color:#b91c1c}
button.link{background:none;border:none;color:inherit;padding:0;text-decoration:underline}
form.inline{display:inline}
.tabs{display:flex;gap:2px;border-bottom:1px solid #cbd5e1;margin-bottom:14px}
.tabs a{padding:8px 14px;border:1px solid transparent;border-bottom:none;border-radius:6px 6px 0 0}
.tabs a.active{background:#fff;border-color:#cbd5e1;font-weight:600}
.pager{display:flex;gap:6px;margin:14px 0;align-items:center}
.pager a,.pager span{padding:4px 10px;border:1px solid #cbd5e1;border-radius:6px;background:#fff}
.pager .current{background:#1e293b;color:#fff}
.badge{display:inline-block;padding:1px 8px;border-radius:999px;font-size:12px;background:#e2e8f0}
.badge.high,.badge.urgent{background:#fee2e2;color:#991b1b}.badge.low{background:#dcfce7;color:#166534}
.muted{color:#64748b}.price{font-weight:600}
.product-card .product-image{display:block;width:100%;height:120px;object-fit:cover;border-radius:8px;margin-bottom:8px}
.product-image{display:block}
.combobox{position:relative}
.combo-list{position:absolute;z-index:10;left:0;right:0;margin:2px 0 0;padding:4px 0;list-style:none;background:#fff;border:1px solid #cbd5e1;border-radius:6px;max-height:220px;overflow:auto}
.combo-list li{padding:6px 10px;cursor:pointer}.combo-list li:hover,.combo-list li[aria-selected=true]{background:#eff6ff}
.datepicker{position:absolute;z-index:10;background:#fff;border:1px solid #cbd5e1;border-radius:8px;padding:8px;box-shadow:0 6px 20px rgba(0,0,0,.12)}
.dp-head{display:flex;justify-content:space-between;align-items:center;margin-bottom:6px}
.dp-head button{padding:2px 10px}
.dp-grid{display:grid;grid-template-columns:repeat(7,34px);gap:2px}
.dp-grid button{padding:4px 0;background:#fff;color:#1f2933;border:1px solid #e2e8f0}
.dp-grid button.today{border-color:#2563eb}.dp-grid button.selected{background:#2563eb;color:#fff}
.dp-dow{font-size:12px;color:#64748b;text-align:center}
.board{display:grid;grid-template-columns:repeat(4,1fr);gap:12px}
.column{background:#eef2f7;border-radius:10px;padding:10px;min-height:300px}
.column h3{margin:0 0 8px}
.kcard{background:#fff;border:1px solid #d8dee8;border-radius:8px;padding:8px 10px;margin-bottom:8px;cursor:grab}
.sortable li{background:#fff;border:1px solid #d8dee8;border-radius:8px;padding:8px 10px;margin-bottom:6px;cursor:grab;list-style:none}
.sortable{padding:0}
.hovermenu{position:relative;height:100%;display:flex;align-items:center}
.hovermenu-trigger{padding:6px 10px;border-radius:6px;cursor:default;color:#fde68a}
.hovermenu-items{display:none;position:absolute;top:100%;right:0;z-index:20;min-width:220px;padding:6px 0;background:#fffbeb;border:1px solid #f59e0b;border-top:3px solid #f59e0b;box-shadow:0 8px 18px rgba(0,0,0,.18)}
.hovermenu:hover .hovermenu-items{display:block}.hovermenu:hover .hovermenu-trigger{background:#334155}
.hovermenu-items a{display:block;padding:7px 14px;color:#78350f}.hovermenu-items a:hover{background:#fef3c7;text-decoration:none}
`;
