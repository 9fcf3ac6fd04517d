# lit configuration: stage commands on small inputs, checked with filecheck.
import os
import sys

import lit.formats

config.name = "gpuverify-stages"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".gbpl", ".bpl", ".cl", ".cu", ".ll", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
bindir = os.path.dirname(sys.executable)
config.environment["PATH"] = bindir + os.pathsep + os.environ.get("PATH", "")
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
config.environment["PYTHONPATH"] = root
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%vcgen", f"{sys.executable} -m vcgen.cli"))
config.substitutions.append(("%bugle", f"{sys.executable} -m bugle.cli"))
config.substitutions.append(("%gpuverify", f"{sys.executable} -m vcgen.driver"))
config.substitutions.append(("%FileCheck", "filecheck"))
