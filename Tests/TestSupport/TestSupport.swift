import MeTubeCore
