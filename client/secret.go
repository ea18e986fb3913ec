package client

import (
	"regexp"
	"strings"
	"unicode"
)

// The rules below decide which environment values [Client.ShowEnvironment]
// withholds unless asked. They are heuristics, documented in
// docs/trust-model.md ("Credentials in the environment"): a credential
// under an innocent name in an unrecognised format is still shown.

// credentialParts mark a name as a credential wherever they appear in it
// (upper-cased): DB_PASSWORD, GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY,
// SLACK_WEBHOOK_URL.
var credentialParts = []string{
	"TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "KEY", "CREDENTIAL", "AUTH", "COOKIE",
	"SESSION", "PRIVATE", "CERT", "DSN", "API", "JWT", "BEARER", "WEBHOOK", "MNEMONIC", "SIGNATURE",
}

// credentialWords mark a name as a credential only as whole words (split
// at anything but letters and digits, and where a lower-case letter meets
// an upper-case one), because they are also pieces of harmless words:
// DB_PASS and dbPass but not PASSTHROUGH, MYSQL_PWD but not PWD itself,
// STRIPE_SK, PASSWORD_SALT, WALLET_SEED, GITHUB_PAT, CREDS but not
// CREDIT, SSHPASS (sshpass(1) reads the password from it).
var credentialWords = map[string]bool{
	"PASS": true, "PWD": true, "PW": true, "SK": true, "SALT": true, "SEED": true,
	"PIN": true, "OTP": true, "TOTP": true, "HMAC": true,
	"PAT": true, "CRED": true, "CREDS": true, "SSHPASS": true,
}

// notCredentials are names the word rule would catch that hold no secret:
// the shell's working directories.
var notCredentials = map[string]bool{"PWD": true, "OLDPWD": true}

// LooksSecret reports whether a variable name looks like it holds a
// credential: it contains one of [credentialParts], or one of
// [credentialWords] as a whole word. PWD and OLDPWD do not.
func LooksSecret(name string) bool {
	u := strings.ToUpper(name)
	if notCredentials[u] {
		return false
	}
	for _, w := range credentialParts {
		if strings.Contains(u, w) {
			return true
		}
	}
	for _, w := range nameWords(name) {
		if credentialWords[strings.ToUpper(w)] {
			return true
		}
	}
	return false
}

// nameWords splits a variable name into words at every character that is
// not a letter or digit, and between a lower-case letter and an upper-case
// one (dbPass is db, Pass).
func nameWords(name string) []string {
	var words []string
	start := -1
	var prev rune
	for i, r := range name {
		alnum := unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case !alnum:
			if start >= 0 {
				words = append(words, name[start:i])
			}
			start = -1
		case start < 0:
			start = i
		case unicode.IsLower(prev) && unicode.IsUpper(r):
			words = append(words, name[start:i])
			start = i
		}
		prev = r
	}
	if start >= 0 {
		words = append(words, name[start:])
	}
	return words
}

// webhookHosts hold credentials in the URL path itself: whoever has the
// URL can post. A host matches itself and its subdomains; a path, when
// given, must start the URL's path.
var webhookHosts = []struct{ host, path string }{
	{"hooks.slack.com", ""},
	{"discord.com", "/api/webhooks"},
	{"discordapp.com", "/api/webhooks"},
	{"webhook.office.com", ""},
	{"outlook.office.com", "/webhook"},
	{"hooks.zapier.com", ""},
	{"maker.ifttt.com", "/trigger"},
	{"api.telegram.org", "/bot"},
	{"chat.googleapis.com", ""},
	{"open.feishu.cn", "/open-apis/bot"},
	{"oapi.dingtalk.com", "/robot"},
}

// credentialQueryKeys are URL query parameters that carry a credential.
var credentialQueryKeys = map[string]bool{
	"token": true, "access_token": true, "auth": true, "key": true, "api_key": true, "apikey": true,
	"secret": true, "client_secret": true, "password": true, "pass": true, "pwd": true,
	"sig": true, "signature": true,
}

// tokenPrefixes start well-known credential formats: GitHub, GitLab, Slack,
// Stripe, OpenAI and Anthropic, npm, PyPI, Google API keys, AWS access key
// ids.
var tokenPrefixes = []string{
	"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-",
	"xoxb-", "xoxp-", "xoxa-", "xoxs-", "xapp-",
	"sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_", "sk-",
	"npm_", "pypi-", "AIza", "AKIA", "ASIA", "hf_",
}

// connectionKeys carry a credential in a KEY=VALUE connection string:
// database DSNs (password=, Pwd=), Azure storage (AccountKey=) and Service
// Bus (SharedAccessKey=, SharedAccessSignature=).
var connectionKeys = []string{"password=", "pwd=", "accountkey=", "sharedaccesskey=", "sharedaccesssignature="}

// jsonMemberRE finds a JSON member with a string value ("auth": "...").
var jsonMemberRE = regexp.MustCompile(`"([A-Za-z0-9_.-]{1,64})"\s*:\s*"[^"]`)

// LooksSecretValue reports whether a value looks like a credential
// whatever its name: a URL with a password in it (postgres://u:pw@db/x), a
// URL with a credential query parameter (?token=...), a webhook URL of a
// known service (hooks.slack.com/..., discord.com/api/webhooks/...), a
// connection string with password=, pwd=, AccountKey= or SharedAccessKey=,
// JSON with a member whose name looks secret (a docker config's "auth"), a
// netrc line's password, a PEM private key, a JSON Web Token, or a token
// in a well-known format (ghp_..., xoxb-..., sk_live_..., hf_..., AKIA...).
func LooksSecretValue(v string) bool {
	v = strings.TrimSpace(v)
	if v == "" {
		return false
	}
	lower := strings.ToLower(v)
	if strings.Contains(v, "-----BEGIN") && strings.Contains(v, "PRIVATE KEY") {
		return true
	}
	for _, k := range connectionKeys {
		if strings.Contains(lower, k) {
			return true
		}
	}
	// JSON whose member names look secret: a docker config's "auth", a
	// credentials file's "password" or "token".
	for _, m := range jsonMemberRE.FindAllStringSubmatch(v, 64) {
		if LooksSecret(m[1]) {
			return true
		}
	}
	// A netrc line: ... password SECRET.
	fields := strings.Fields(lower)
	for i, f := range fields {
		if (f == "password" || f == "passwd") && i+1 < len(fields) {
			return true
		}
	}
	if secretURL(v) {
		return true
	}
	if looksJWT(v) {
		return true
	}
	if strings.ContainsAny(v, " \t\n") {
		return false
	}
	for _, p := range tokenPrefixes {
		if strings.HasPrefix(v, p) && len(v) >= len(p)+16 {
			return true
		}
	}
	return false
}

// secretURL finds the URLs in v (scheme://...) and reports whether one
// carries a password, a credential query parameter, or is a webhook URL.
func secretURL(v string) bool {
	for rest := v; ; {
		i := strings.Index(rest, "://")
		if i < 0 {
			return false
		}
		rest = rest[i+3:]
		end := strings.IndexAny(rest, " \t\n\"'<>,;")
		u := rest
		if end >= 0 {
			u = rest[:end]
		}
		if urlCarriesSecret(u) {
			return true
		}
	}
}

// urlCarriesSecret inspects one URL after its "scheme://".
func urlCarriesSecret(u string) bool {
	authority, path := u, ""
	if i := strings.IndexAny(u, "/?#"); i >= 0 {
		authority, path = u[:i], u[i:]
	}
	host := authority
	if at := strings.LastIndexByte(authority, '@'); at >= 0 {
		userinfo := authority[:at]
		host = authority[at+1:]
		if c := strings.IndexByte(userinfo, ':'); c >= 0 && c < len(userinfo)-1 {
			return true // user:password@host
		}
		if strings.HasPrefix(path, "/") && userinfo != "" && !strings.Contains(userinfo, ":") && len(userinfo) >= 20 {
			return true // a token as the user name (https://TOKEN@github.com/...)
		}
	}
	if c := strings.LastIndexByte(host, ':'); c >= 0 && !strings.Contains(host[c:], "]") {
		host = host[:c]
	}
	host = strings.ToLower(host)
	for _, w := range webhookHosts {
		if (host == w.host || strings.HasSuffix(host, "."+w.host)) && strings.HasPrefix(path, w.path) {
			return true
		}
	}
	if q := strings.IndexByte(path, '?'); q >= 0 {
		query := path[q+1:]
		if h := strings.IndexByte(query, '#'); h >= 0 {
			query = query[:h]
		}
		for _, kv := range strings.FieldsFunc(query, func(r rune) bool { return r == '&' || r == ';' }) {
			k, val, _ := strings.Cut(kv, "=")
			if credentialQueryKeys[strings.ToLower(k)] && val != "" {
				return true
			}
		}
	}
	return false
}

// looksJWT reports a JSON Web Token: three base64url segments, the first
// a JSON object ("eyJ" is the encoding of `{"`).
func looksJWT(v string) bool {
	if !strings.HasPrefix(v, "eyJ") {
		return false
	}
	parts := strings.Split(v, ".")
	if len(parts) != 3 || len(parts[1]) < 2 {
		return false
	}
	for _, p := range parts {
		for _, r := range p {
			if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '=') {
				return false
			}
		}
	}
	return true
}
