# Installation and packaging rules (binary, man page, completions, .deb).
