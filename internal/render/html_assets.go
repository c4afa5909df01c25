package render

// pageCSS themes the page: light by default, dark when the system asks for
// it (prefers-color-scheme), and a print style that opens every section and
// drops the controls.
const pageCSS = `:root{--bg:#fff;--fg:#1b1f24;--muted:#59636e;--line:#d1d9e0;--panel:#f6f8fa;--accent:#0969da;--hot:#bf3989;--note:#fff8c5;--ok:#1a7f37;--warn:#9a6700;--bad:#cf222e;--band:#ddf4ff;--sel:#fff1b3}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--panel:#151b23;--accent:#4493f8;--hot:#db61a2;--note:#3b2f00;--ok:#3fb950;--warn:#d29922;--bad:#f85149;--band:#0c2d6b;--sel:#4b3b00}}
*{box-sizing:border-box}
body{margin:0;padding:0 1.2rem 2rem;background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
h1{font-size:1.35rem;margin:1rem 0 .3rem}h2{display:inline;font-size:1.1rem;margin:0}h3{font-size:1rem;margin:1rem 0 .3rem}
.hint{color:var(--muted);margin:.2rem 0 1rem}
button{font:inherit;font-size:.85rem;color:var(--fg);background:var(--panel);border:1px solid var(--line);border-radius:4px;padding:.1rem .5rem;cursor:pointer}
details.sec{border-top:1px solid var(--line);padding:.4rem 0}
details.sec>summary{cursor:pointer;padding:.2rem 0}
p.note{color:var(--muted);border-left:3px solid var(--line);padding-left:.6rem}
p.warn{color:var(--warn)}p.ok{color:var(--ok)}p.bad{color:var(--bad);font-weight:600}
.tw,.figwrap{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin:.5rem 0;overflow-wrap:normal;word-break:normal}th,td{border:1px solid var(--line);padding:.2rem .5rem;text-align:left;vertical-align:top;white-space:nowrap}td.long{white-space:normal;min-width:16rem}
th{background:var(--panel)}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}tr.hl td{font-weight:600;background:var(--sel)}
pre{background:var(--panel);border:1px solid var(--line);border-radius:4px;padding:.6rem;overflow-x:auto;font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre .hot{background:var(--sel);color:var(--hot);font-weight:600;display:inline-block;min-width:100%}
svg text{fill:var(--fg);font:11px system-ui,sans-serif}
code{font:.92em ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--panel);border-radius:3px;padding:0 .2em}
.layout{display:flex;gap:1rem;align-items:flex-start}
.layout>.diagram{flex:0 1 auto;min-width:0;max-width:58%;position:sticky;top:.5rem;max-height:calc(100vh - 2.6rem);display:flex;flex-direction:column}
.layout>.flow{flex:1 1 24rem;min-width:0}
.seqwrap{overflow:auto;min-height:0;max-height:100%;border:1px solid var(--line);border-radius:4px;background:var(--bg)}
.seqhead{position:sticky;top:0;z-index:1;display:block;background:var(--bg);margin-bottom:-34px}.seqhead rect{fill:var(--panel);stroke:var(--muted)}.seqhead text{text-anchor:middle;font-weight:600}
.seq{display:block}
.seq .lane line{stroke:var(--line);stroke-dasharray:4 3}.seq .lane rect{fill:var(--panel);stroke:var(--muted)}.seq .lane text{text-anchor:middle;font-weight:600}
.seq .band rect{fill:var(--band)}.seq .band text{font-weight:600}
.seq .t{fill:var(--muted);font-family:ui-monospace,monospace;font-size:10px}
.seq .arrow line{stroke:var(--fg);stroke-width:1.3}.seq .arrow.reply line{stroke-dasharray:5 3}.seq .arrow text{text-anchor:middle}
.seq .head{fill:var(--fg)}
.seq .note rect{fill:var(--note);stroke:var(--warn);stroke-width:.6}.seq .note text{text-anchor:middle}
.seq [data-ref]{cursor:pointer}.seq [data-ref]:hover text{fill:var(--accent)}
.seq .sel line{stroke:var(--hot);stroke-width:2.5}.seq .sel rect{stroke:var(--hot);stroke-width:2}.seq .sel text{fill:var(--hot);font-weight:600}
ol.steps{list-style:none;padding:0;margin:.3rem 0}
li.step{padding:.15rem .3rem;border-radius:4px;cursor:pointer;overflow-wrap:anywhere}li.step:hover{background:var(--panel)}
li.step .t{color:var(--muted);font:12px ui-monospace,monospace;margin-right:.5rem}li.step .who{font-weight:600;margin-right:.4rem}
li.step .ex{display:none;margin:.3rem 0 .3rem 1.2rem;padding:.3rem .6rem;border-left:3px solid var(--accent);background:var(--panel)}
li.step.open .ex{display:block}li.step.sel{background:var(--sel)}
.fields{color:var(--muted);font-size:.9em;overflow-wrap:anywhere}
.bars rect{fill:var(--accent)}.bars .lbl{text-anchor:end}
.graph .node rect{fill:var(--panel);stroke:var(--muted)}.graph .node text{text-anchor:middle;font-family:ui-monospace,monospace}
.graph .node.hot rect{stroke:var(--hot);stroke-width:2.5}.graph .edge path{fill:none;stroke:var(--muted);stroke-width:1.3}
.graph .edge.hot path{stroke:var(--hot);stroke-width:3}.graph .edge text{text-anchor:middle;fill:var(--muted);paint-order:stroke;stroke:var(--bg);stroke-width:4px}.graph .edge.hot text{fill:var(--hot);font-weight:600}
.chart .grid line{stroke:var(--line)}.chart .grid text{text-anchor:end;fill:var(--muted)}.chart .xt,.chart .xl{text-anchor:middle;fill:var(--muted)}
.chart polyline{fill:none;stroke-width:2.2}
.s0{--c:#8c959f}.s1{--c:var(--accent)}.s2{--c:var(--ok)}.s3{--c:var(--warn)}.s4{--c:var(--hot)}.s5{--c:var(--bad)}
.chart .series polyline{stroke:var(--c)}.chart .series circle{fill:var(--c)}
ul.legend{list-style:none;display:flex;flex-wrap:wrap;gap:.2rem 1.2rem;padding:0;margin:.2rem 0}ul.legend .sw{display:inline-block;width:1.4rem;height:3px;background:var(--c);vertical-align:middle;margin-right:.4rem}
figure{margin:.6rem 0}figcaption{color:var(--muted);font-size:.9em}figure.lead{margin:.2rem 0 1rem}
.sides{display:flex;flex-direction:column;gap:.4rem}.srow{display:flex;gap:.6rem;align-items:center;flex-wrap:wrap}
.slabel{min-width:min(14rem,100%);color:var(--muted)}.side{display:flex;flex-wrap:wrap;gap:.3rem;border:1px dashed var(--muted);border-radius:6px;padding:.25rem}
.side.down{border-color:var(--bad)}
.member{padding:.1rem .45rem;border-radius:10px;border:1px solid var(--muted);font:12px ui-monospace,monospace}
.member.leader{background:var(--accent);color:var(--bg);border-color:var(--accent);font-weight:700}
.member.candidate,.member.pre-candidate{border-color:var(--warn);color:var(--warn)}.member.down{text-decoration:line-through;color:var(--bad);border-color:var(--bad)}
.player{display:flex;flex-wrap:wrap;align-items:center;gap:.3rem;margin-bottom:.4rem}.player input{flex:1 1 8rem;min-width:6rem}
.player .pos{font:12px ui-monospace,monospace;color:var(--muted);min-width:7.5rem}
.player button[aria-pressed="true"]{background:var(--band);border-color:var(--accent)}
.player button{min-width:2rem;font-weight:700}
.diagram.withstate{height:calc(100vh - 2.6rem)}.diagram.withstate .seqwrap{flex:1 1 0}
.diagram .state{display:none;flex:1 1 0;min-height:0;overflow:auto;border:1px solid var(--line);border-radius:4px;margin-top:.4rem;padding:.2rem .5rem;font-size:13px}
.diagram.withstate .state{display:block}.state h4{margin:.4rem 0 .1rem;font-size:.95em}.state p{margin:.2rem 0;color:var(--muted)}
.state table{margin:.2rem 0;font:12px ui-monospace,monospace}.state tr.gone td{text-decoration:line-through;color:var(--bad)}.state td.wrap{white-space:normal;min-width:12em}
@media (max-width:900px){.diagram.withstate .seqwrap{display:none}}
@media (max-width:900px){body{padding:0 .6rem 1.5rem}.layout{display:block}
.layout>.diagram{max-width:none;top:0;z-index:2;background:var(--bg);max-height:40vh;padding:.3rem 0}
li.step,.flow [id]{scroll-margin-top:42vh}}
@media print{:root{--bg:#fff;--fg:#000;--muted:#444;--line:#999;--panel:#f3f3f3;--band:#eee;--note:#fff;--sel:#fff}
body{font-size:10pt;padding:0}.hint,button,.player,.diagram .state{display:none}.layout{display:block}.layout>.diagram{position:static;max-width:none;max-height:none;display:block}.seqwrap,.tw,.figwrap{max-height:none;overflow:visible;border:0}
li.step .ex{display:block}details.sec{break-inside:auto}h2,h3{break-after:avoid}svg{max-width:100%;height:auto}}
`

// pageJS ties arrows and steps together: a click (or Enter) on either
// selects the step, highlights its arrow and shows its explanation. A click
// on an arrow brings its step into view (the diagram's column stays where
// it is); a click on a step scrolls the diagram, inside its own box, to the
// arrow. #step=sN opens a step. With a player, the controls, the slider
// and the keys (←, →, Home, End, space) move through the steps, and the
// cluster's state at the selected step is drawn from the player's data.
// Before printing every section opens. No network, no storage; the only
// timer is the one the play button starts.
const pageJS = `(function(){
var P=null,el=document.getElementById('k8x-player');
if(el){try{P=JSON.parse(el.textContent)}catch(e){P=null}}
var ids=P?P.steps.map(function(s,i){return 's'+(i+1)}):[],cur=-1,timer=null,opened=null;
var bar=document.querySelector('.player'),col=document.querySelector('.layout>.diagram');
function inBox(el){
  var w=el.closest('.seqwrap');if(!w)return;
  var r=el.getBoundingClientRect(),b=w.getBoundingClientRect(),head=34;
  if(r.top<b.top+head||r.bottom>b.bottom)w.scrollTop+=(r.top+r.bottom)/2-(b.top+head+b.bottom)/2;
  if(r.left<b.left||r.right>b.right)w.scrollLeft+=(r.left+r.right)/2-(b.left+b.right)/2;
}
function select(ref,toggle,how){
  var li=document.getElementById(ref);
  document.querySelectorAll('.sel').forEach(function(e){e.classList.remove('sel')});
  var first=null;
  document.querySelectorAll('[data-ref="'+ref+'"]').forEach(function(e){e.classList.add('sel');if(!first&&e.tagName!=='LI')first=e});
  if(first&&how!=='arrow')inBox(first);
  if(!li)return;
  var d=li.closest('details');if(d)d.open=true;
  if(how==='play'){if(opened&&opened!==li)opened.classList.remove('open');if(!li.classList.contains('open')){li.classList.add('open');opened=li}else opened=null}
  else if(toggle)li.classList.toggle('open');else li.classList.add('open');
  if(how!=='step'&&li.scrollIntoView)li.scrollIntoView({block:how==='hash'?'start':'nearest'});
  if(history.replaceState)history.replaceState(null,'','#step='+ref);
  var i=ids.indexOf(ref);if(i>=0){cur=i;draw()}
}
function ms(t){t=Math.max(0,t);var m=Math.floor(t/60000),s=Math.floor(t/1000)%60,r=t%1000;return(m<10?'0':'')+m+':'+(s<10?'0':'')+s+'.'+('00'+r).slice(-3)}
// kubectl's AGE (k8s.io/apimachinery/pkg/util/duration.HumanDuration, v0.37).
function age(d){var s=Math.floor(d/1000);if(s<-1)return'<invalid>';if(s<0)return'0s';if(s<120)return s+'s';var m=Math.floor(s/60);
  if(m<10)return s%60?m+'m'+s%60+'s':m+'m';if(m<180)return m+'m';var h=Math.floor(m/60);if(h<8)return m%60?h+'h'+m%60+'m':h+'h';
  if(h<48)return h+'h';var dd=Math.floor(h/24);if(h<192)return h%24?dd+'d'+h%24+'h':dd+'d';if(h<17520)return dd+'d';var y=Math.floor(dd/365);
  if(h<70080)return dd%365?y+'y'+dd%365+'d':y+'y';return y+'y'}
function word(k,v){return P.words[k].replace(/\{(\w+)\}/g,function(_,n){return v[n]})}
function esc(s){return String(s).replace(/[&<>"]/g,function(c){return{'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c]})}
function draw(){
  if(!P||cur<0)return;
  var st=P.steps[cur],rows={},order=[];
  bar.querySelector('input').value=cur+1;
  bar.querySelector('.pos').textContent=(cur+1)+'/'+ids.length+' · '+ms(st.t);
  for(var i=0;i<st.n;i++){var c=P.changes[i],k=c.k+'/'+c.n;
    if(c.d){if(i>=st.p&&rows[k]){rows[k].gone=true;rows[k].hl=true}else delete rows[k];continue}
    if(!rows[k])order.push(k);rows[k]={c:c,hl:i>=st.p}}
  var html='<p>'+esc(word('at',{t:ms(st.t),n:cur+1,all:ids.length}))+'</p>';
  if(P.dropped&&st.n>=P.changes.length)html+='<p>'+esc(word('dropped',{n:P.dropped}))+'</p>';
  P.kinds.forEach(function(kd,ki){
    var list=order.filter(function(k){return rows[k]&&rows[k].c.k===ki}).map(function(k){return rows[k]});
    if(!list.length)return;
    list.sort(function(a,b){return a.c.n<b.c.n?-1:a.c.n>b.c.n?1:0});
    // At most 50 rows a kind: those this step changed first, then by name.
    var shown=list.filter(function(r){return r.hl}).concat(list.filter(function(r){return!r.hl})).slice(0,50);
    shown.sort(function(a,b){return a.c.n<b.c.n?-1:a.c.n>b.c.n?1:0});
    html+='<h4>'+esc(kd.title)+' ('+list.length+')</h4><div class="tw"><table><thead><tr>'+kd.header.map(function(h){return'<th>'+esc(h)+'</th>'}).join('')+'</tr></thead><tbody>';
    shown.forEach(function(r){html+='<tr'+(r.gone?' class="gone"':r.hl?' class="hl"':'')+'>'+kd.header.map(function(h,j){
      var v=h==='NAME'?r.c.n:h==='AGE'?age(st.t-r.c.a):(r.c.c?r.c.c[j]:'');
      // printPod's RESTARTS: "3 (20s ago)" from the last restart's finishedAt.
      if(h==='RESTARTS'&&r.c.r!=null&&v!=='0')v+=' ('+age(st.t-r.c.r)+' ago)';
      // A long cell of words (kube-proxy's KUBE-SEP list) wraps at its spaces instead of widening the table.
      return'<td'+(String(v).length>40?' class="wrap"':'')+'>'+esc(v)+'</td>'}).join('')+'</tr>'});
    html+='</tbody></table></div>';
    if(list.length>shown.length)html+='<p>'+esc(word('more',{n:list.length-shown.length}))+'</p>';
  });
  col.querySelector('.state').innerHTML=html;
}
function go(i){if(!ids.length)return;i=Math.max(0,Math.min(ids.length-1,i));select(ids[i],false,'play')}
function play(on){
  if(timer){clearInterval(timer);timer=null}
  if(!bar)return;
  if(on){if(cur>=ids.length-1)go(0);timer=setInterval(function(){if(cur>=ids.length-1)play(false);else go(cur+1)},1200)}
  var b=bar.querySelector('[data-p="play"]');b.textContent=timer?'‖':'▶';b.setAttribute('aria-pressed',timer?'true':'false');
}
function showState(on){col.classList.toggle('withstate',on);bar.querySelector('[data-p="state"]').setAttribute('aria-pressed',on?'true':'false')}
if(P&&bar){
  bar.addEventListener('click',function(ev){var b=ev.target.closest('[data-p]');if(!b)return;var a=b.getAttribute('data-p');
    if(a==='first')go(0);else if(a==='prev')go(cur-1);else if(a==='next')go(cur+1);else if(a==='last')go(ids.length-1);
    else if(a==='play')play(!timer);else if(a==='state')showState(!col.classList.contains('withstate'))});
  bar.querySelector('input').addEventListener('input',function(ev){go(+ev.target.value-1)});
  showState(!(window.matchMedia&&matchMedia('(max-width:900px)').matches));
}
document.addEventListener('click',function(ev){
  var f=ev.target.closest('[data-fold]');
  if(f){var o=f.getAttribute('data-fold')==='open';document.querySelectorAll('details.sec').forEach(function(d){d.open=o});return}
  var el=ev.target.closest('[data-ref]');
  if(el)select(el.getAttribute('data-ref'),el.tagName==='LI',el.tagName==='LI'?'step':'arrow');
});
document.addEventListener('keydown',function(ev){
  var t=ev.target,tag=t.tagName||'';
  if(ev.key==='Enter'){var el=t.closest&&t.closest('[data-ref]');
    if(el){ev.preventDefault();select(el.getAttribute('data-ref'),el.tagName==='LI',el.tagName==='LI'?'step':'arrow')}return}
  if(!P||ev.altKey||ev.ctrlKey||ev.metaKey||tag==='INPUT'||tag==='TEXTAREA')return;
  if(ev.key==='ArrowRight'){ev.preventDefault();go(cur+1)}else if(ev.key==='ArrowLeft'){ev.preventDefault();go(cur-1)}
  else if(ev.key==='Home'){ev.preventDefault();go(0)}else if(ev.key==='End'){ev.preventDefault();go(ids.length-1)}
  else if(ev.key===' '&&tag!=='BUTTON'&&tag!=='SUMMARY'){ev.preventDefault();play(!timer)}
});
// A link to page.html#step=s12 opens with step 12 selected, explained and
// scrolled to, its arrow in the diagram's view.
function fromHash(){var m=/^#step=(s\d+)$/.exec(location.hash);if(m&&document.getElementById(m[1]))select(m[1],false,'hash');else if(P&&cur<0){cur=0;draw()}}
fromHash();window.addEventListener('hashchange',fromHash);
window.addEventListener('beforeprint',function(){play(false);document.querySelectorAll('details').forEach(function(d){d.open=true})});
})();
`
