package client_test

import (
	"context"
	"testing"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// show-environment withholds credentials by name and by value, and shows
// what only looks like one at a glance (docs/trust-model.md, "Credentials
// in the environment").
func TestShowEnvironmentWithholdsCredentials(t *testing.T) {
	t.Parallel()
	secret := map[string]string{
		"DB_PASS":           "hunter2",
		"MYSQL_PWD":         "hunter2",
		"dbPass":            "hunter2",
		"JWT":               "x",
		"BEARER":            "x",
		"PASSWORD_SALT":     "x",
		"WALLET_SEED":       "x",
		"STRIPE_SK":         "x",
		"GITHUB_TOKEN":      "x",
		"DATABASE_URL":      "postgres://app:s3cret@db.internal:5432/app",
		"REDIS":             "redis://:s3cret@cache:6379/0",
		"NOTIFY":            "https://hooks.slack.com/services/T000/B000/XXXXXXXX",
		"ALERTS":            "https://discord.com/api/webhooks/123/abcdef",
		"TEAMS":             "https://example.webhook.office.com/webhookb2/abc",
		"CALLBACK":          "https://api.example.com/cb?token=abcdef",
		"CONN":              "host=db user=app password=s3cret",
		"ODBC":              "Server=db;Uid=app;Pwd=s3cret;",
		"ID":                "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
		"GH":                "ghp_0123456789abcdefghijABCDEFGHIJ012345",
		"AWS_ID":            "AKIAIOSFODNN7EXAMPLE",
		"OPENAI":            "sk-proj-0123456789abcdefghij",
		"DEPLOY_KEY_PEM":    "-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY-----",
		"CLONE":             "https://x-access-token:abc@github.com/o/r.git",
		"SSH_AUTH_SOCK":     "/tmp/agent",
		"AWS_SECRET_ACCESS": "x",
		// Shapes a second review found shown.
		"SSHPASS":    "hunter2",
		"GITHUB_PAT": "abc123",
		"CREDS":      "app:hunter2",
		"STORAGE":    "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=YWJjZGVm==;EndpointSuffix=core.windows.net",
		"BUS":        "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=root;SharedAccessKey=YWJjZGVm=",
		"REGISTRY":   `{"auths":{"ghcr.io":{"auth":"dXNlcjpodW50ZXIy"}}}`,
		"NETRC_LINE": "machine api.example.com login me password hunter2",
		"HF":         "hf_abcdefghijklmnopqrstuvwxyz012345",
		"SLACK_USER": "xoxp-1234567890-1234567890-abcdefabcdef",
	}
	shown := map[string]string{
		"PWD":         "/home/u",
		"OLDPWD":      "/tmp",
		"PATH":        "/usr/bin:/bin",
		"PASSTHROUGH": "1",
		"HOMEPAGE":    "https://example.com/a?b=c",
		"UPSTREAM":    "https://user@example.com/repo.git",
		"PROXY":       "http://proxy:3128",
		"EDITOR":      "vi",
		"SKIP":        "sk-",
		"LANG":        "C.UTF-8",
		"CREDIT":      "100",
		"PATTERN":     "a*",
		"SETTINGS":    `{"theme":"dark"}`,
		"HOSTS":       "machine-a machine-b",
	}
	srv := tmuxtest.New(t)
	srv.NewPane("s", "sh", 80, 20)
	for name, v := range secret {
		srv.Tmux("set-environment", "-g", name, v)
	}
	for name, v := range shown {
		srv.Tmux("set-environment", "-g", name, v)
	}
	vars, err := srv.Client().ShowEnvironment(context.Background(), nil, true, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]client.EnvVar{}
	for _, v := range vars {
		got[v.Name] = v
	}
	for name := range secret {
		if v := got[name]; !v.Withheld || v.Value != nil {
			t.Errorf("%s is shown: %+v", name, v)
		}
	}
	for name, want := range shown {
		if v := got[name]; v.Withheld || v.Value == nil || *v.Value != want {
			t.Errorf("%s is withheld or changed: %+v", name, v)
		}
	}
	vars, err = srv.Client().ShowEnvironment(context.Background(), nil, true, true, []string{"DATABASE_URL"})
	if err != nil || len(vars) != 1 || vars[0].Value == nil || *vars[0].Value != secret["DATABASE_URL"] {
		t.Errorf("reveal: %+v %v", vars, err)
	}
}

// FuzzLooksSecretValue: the value rule never panics, and surrounding
// blanks do not change its answer.
func FuzzLooksSecretValue(f *testing.F) {
	for _, s := range []string{"postgres://a:b@h/d", "https://hooks.slack.com/x", "x://@", "://:", "eyJ.a.b", "a?token=", "[::1]:80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if client.LooksSecretValue(v) != client.LooksSecretValue(" "+v+"\t") {
			t.Errorf("blanks change the answer for %q", v)
		}
		client.LooksSecret(v)
	})
}
