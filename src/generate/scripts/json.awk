function decode(raw,    out, p, e) {
    ok = 1
    out = ""
    while ((p = index(raw, "\\")) > 0) {
        e = substr(raw, p + 1, 1)
        if (e == "\"" || e == "\\" || e == "/") out = out substr(raw, 1, p - 1) e
        else { ok = 0; out = out substr(raw, 1, p - 1) }
        raw = substr(raw, p + 2)
    }
    return out raw
}
function value(v, good) {
    if (kind[d] == "{") {
        if (d == 3 && inlist) { rec[key[d]] = v; recok[key[d]] = good }
        haskey[d] = 0
    }
}
function enter(c,    k) {
    k = ""
    if (kind[d] == "{") { k = key[d]; haskey[d] = 0 }
    d++
    kind[d] = c
    haskey[d] = 0
    if (d == 2 && c == "[" && k == ENVIRON["_plugctl_list"]) inlist = 1
    if (d == 3 && inlist) { split("", rec); split("", recok) }
}
function leave(    i, n, w, f) {
    if (d == 3 && inlist && kind[d] == "{" && keep()) {
        n = split(ENVIRON["_plugctl_want"], w, " ")
        for (i = 1; i <= n; i++) {
            f = w[i]
            if ((f in rec) && recok[f] && rec[f] != "") print rec[f]
        }
    }
    if (d == 2) inlist = 0
    d--
}
function keep(    i, n, f, c) {
    n = split("type namespace healthy source", f, " ")
    for (i = 1; i <= n; i++) {
        c = ENVIRON["_plugctl_" f[i]]
        if (c != "" && !((f[i] in rec) && rec[f[i]] == c)) return 0
    }
    c = ENVIRON["_plugctl_has"]
    return c == "" || (c in rec)
}
{
    line = $0
    i = 1
    n = length(line)
    while (i <= n) {
        c = substr(line, i, 1)
        if (c == "\"") {
            if (!match(substr(line, i + 1), /^([^"\\]|\\.)*"/)) exit 1
            s = decode(substr(line, i + 1, RLENGTH - 1))
            i += RLENGTH + 1
            if (kind[d] == "{" && !haskey[d]) { key[d] = s; haskey[d] = 1 }
            else value(s, ok)
        } else if (c == "{" || c == "[") { enter(c); i++ }
        else if (c == "}" || c == "]") { leave(); i++ }
        else if (c ~ /[-0-9a-z]/) {
            match(substr(line, i), /^[-+.0-9a-zA-Z]+/)
            value(substr(line, i, RLENGTH), 1)
            i += RLENGTH
        } else i++
    }
}
