"""The trips scenarios' gRPC descriptor set is what protoc makes of the trip planner's transit.proto today: a field
added to the .proto and not to the set (or the other way round) would load scenarios against the wrong messages.
scripts/generate-grpc writes both the set and the Swift code; the Swift code needs the protobuf plugins, which CI
does not build, so this checks the half protoc alone can."""
import pathlib
import subprocess

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
PROTOS = REPOSITORY / "Sources" / "TripPlanner" / "Protos"


def test_the_shipped_descriptor_set_is_the_protos(tmp_path):
    written = tmp_path / "transit.pb"
    subprocess.run(["protoc", f"--descriptor_set_out={written}", "--include_imports", "-I", str(PROTOS), str(PROTOS / "transit.proto")],
                   check=True)
    shipped = REPOSITORY / "scenarios" / "trips-happy" / "transit.pb"
    assert written.read_bytes() == shipped.read_bytes(), \
        "scenarios/trips-happy/transit.pb is stale: run PLUGINS=DIR scripts/generate-grpc (see its header)"


def test_the_generated_swift_is_of_the_protos_messages():
    generated = (REPOSITORY / "Sources" / "TripPlanner" / "transit.pb.swift").read_text()
    proto = (PROTOS / "transit.proto").read_text()
    for line in proto.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] == "message":
            assert f"struct Transit_{words[1]}: Sendable" in generated, f"transit.pb.swift has no {words[1]}: regenerate it"
