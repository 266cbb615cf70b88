"""scripts/apt-mirror.sh: the Debian archive debootstrap uses is the one apt's own sources name."""

import os
import subprocess
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                      "scripts", "apt-mirror.sh")


class AptMirrorTest(unittest.TestCase):
    def mirror(self, files):
        """Runs the script over an apt folder holding `files` ({relative path: text})."""
        with tempfile.TemporaryDirectory() as folder:
            os.makedirs(os.path.join(folder, "sources.list.d"))
            for path, text in files.items():
                with open(os.path.join(folder, path), "w") as f:
                    f.write(text)
            return subprocess.run([SCRIPT, "--sources-dir", folder], capture_output=True, text=True, timeout=30)

    def test_deb822_sources_skip_security_disabled_and_source_only_stanzas(self):
        result = self.mirror({"sources.list.d/debian.sources": (
            "Types: deb\nURIs: http://security.example/debian-security\nSuites: trixie-security\n\n"
            "Types: deb\nURIs: http://off.example/debian\nSuites: trixie\nEnabled: no\n\n"
            "Types: deb-src\nURIs: http://src.example/debian\nSuites: trixie\n\n"
            "# a comment\nTypes: deb deb-src\nURIs: http://a.example/debian/ http://b.example/debian\n"
            "Suites: trixie trixie-updates\nComponents: main\n")})
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.strip(), "http://a.example/debian")

    def test_one_line_sources_with_options(self):
        result = self.mirror({
            "sources.list": "# deb http://commented.example/debian bookworm main\n"
                            "deb http://security.example/debian-security bookworm-security main\n",
            "sources.list.d/extra.list": "deb [arch=amd64 signed-by=/k.gpg] http://ftp.example/debian bookworm main\n",
        })
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.strip(), "http://ftp.example/debian")

    def test_no_debian_source_is_a_clear_error(self):
        result = self.mirror({"sources.list.d/other.list": "deb https://packages.example/apt cloud-sdk main\n"})
        self.assertEqual(result.returncode, 1)
        self.assertEqual(result.stdout, "")
        self.assertIn("apt names no Debian archive here", result.stderr)
        self.assertIn("--mirror URL", result.stderr)


if __name__ == "__main__":
    unittest.main()
