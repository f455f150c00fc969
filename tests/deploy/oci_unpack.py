#!/usr/bin/env python3
"""Unpacks an OCI image archive's root filesystem and environment.

    oci_unpack.py ARCHIVE ROOT ENVFILE

Extracts the layers of the archive's (single) image in order into ROOT,
applying the layers' whiteouts, and writes the image configuration's Env
to ENVFILE, one NAME=VALUE a line, as a container runtime would set it. It
also prints the entry point and user, which the test checks.
"""
import gzip
import json
import os
import shutil
import sys
import tarfile


def blob(archive, digest):
    algorithm, value = digest.split(":", 1)
    return archive.extractfile(f"blobs/{algorithm}/{value}")


def main():
    archive_path, root, env_path = sys.argv[1:4]
    with tarfile.open(archive_path) as archive:
        index = json.load(archive.extractfile("index.json"))
        if len(index["manifests"]) != 1:
            sys.exit(f"oci_unpack: {archive_path} holds {len(index['manifests'])} images, not one")
        manifest = json.load(blob(archive, index["manifests"][0]["digest"]))
        config = json.load(blob(archive, manifest["config"]["digest"]))["config"]
        os.makedirs(root, exist_ok=True)
        for descriptor in manifest["layers"]:
            data = blob(archive, descriptor["digest"])
            if descriptor["mediaType"].endswith("+gzip"):
                data = gzip.GzipFile(fileobj=data)
            with tarfile.open(fileobj=data, mode="r|") as layer_stream:
                # A streamed tar file yields each member once, in order.
                for member in layer_stream:
                    apply_member(layer_stream, member, root)
    with open(env_path, "w") as env:
        env.writelines(line + "\n" for line in config.get("Env", []))
    print("entrypoint", json.dumps(config.get("Entrypoint")))
    print("user", config.get("User", ""))


def apply_member(layer, member, root):
    directory, name = os.path.split(member.name)
    if name == ".wh..wh..opq":
        opaque = os.path.join(root, directory)
        for child in os.listdir(opaque):
            remove(os.path.join(opaque, child))
    elif name.startswith(".wh."):
        remove(os.path.join(root, directory, name[len(".wh."):]))
    else:
        layer.extract(member, root, set_attrs=True, numeric_owner=True)


def remove(path):
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    elif os.path.lexists(path):
        os.remove(path)


if __name__ == "__main__":
    main()
